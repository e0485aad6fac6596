import { test } from "@playwright/test";
import fc from "fast-check";
import { METHODS } from "./arbitraries";
import { asClient, check, expectNoInternalText, expectNoServerError, expectProblem, send, type Sent } from "./harness";

/**
 * Paths of next-auth's route and the vendors' webhook receivers, with what an attacker sends them:
 * every answer is under 500, and a refusal is a problem document.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

const AUTH_ACTIONS = [
  "callback",
  "signin",
  "signout",
  "session",
  "csrf",
  "providers",
  "error",
  "verify-request",
  "_log",
  "x",
];
const AUTH_TAILS = ["", "/credentials", "/github", "/credentials/x", "/%00", "/..%2f"];
const CALLBACK_URLS = ["", "?callbackUrl=javascript:alert(1)", "?callbackUrl=%2Fw", "?callbackUrl=data:x", "?error=x"];

test("next-auth paths: any method, provider and callback URL answer under 500", async () => {
  const request = fc
    .record({
      method: fc.constantFrom(...METHODS.filter((m) => m !== "CONNECT" && m !== "TRACE")),
      action: fc.constantFrom(...AUTH_ACTIONS),
      tail: fc.constantFrom(...AUTH_TAILS),
      query: fc.constantFrom(...CALLBACK_URLS),
      badCookie: fc.boolean(),
      client: fc.nat(),
    })
    .map(
      (r): Sent => ({
        method: r.method,
        path: `/api/auth/${r.action}${r.tail}${r.query}`,
        headers: asClient(r.badCookie ? { Cookie: "next-auth.callback-url=javascript%3Ax" } : {}, r.client),
      }),
    );
  for (const req of [
    { method: "GET", path: "/api/auth/callback/credentials" },
    { method: "GET", path: "/api/auth/session?callbackUrl=javascript:alert(1)" },
  ]) {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectProblem(reply, req);
  }
  await check("next-auth paths", request, 120, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
  });
});

test("vendor webhook receivers: hostile bodies, ids and signatures answer under 500", async () => {
  const request = fc
    .record({
      route: fc.constantFrom("lob", "stripe"),
      id: fc.constantFrom(`pvc_${"0".repeat(32)}`, "pvc_x", "%00", "a".repeat(300)),
      body: fc.oneof(
        fc.json(),
        fc.constantFrom(
          '{"id":{"not":""},"reference_id":{"contains":""},"event_type":{"id":"postcard.delivered"},"date_created":"2026-01-01T00:00:00Z","body":{"tracking_events":{}}}',
          '{"id":"evt_1","object":"event","api_version":"2020-08-27","type":"customer.subscription.updated","data":{"object":{"id":{"a":1}}}}',
          "",
          "\u0000",
        ),
      ),
      signature: fc.constantFrom(undefined, "t=1,v1=00", "0".repeat(64), ""),
      client: fc.nat(),
    })
    .map(
      (r): Sent => ({
        method: "POST",
        path: r.route === "lob" ? `/api/webhooks/lob/${r.id}` : "/api/webhooks/stripe",
        headers: asClient(
          {
            "Content-Type": "application/json",
            ...(r.signature === undefined
              ? {}
              : r.route === "lob"
                ? { "Lob-Signature": r.signature, "Lob-Signature-Timestamp": String(Date.now()) }
                : { "Stripe-Signature": r.signature }),
          },
          r.client,
        ),
        body: r.body,
      }),
    );
  await check("vendor webhook bodies", request, 80, async (req) => {
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
  });
});
