import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { METHODS } from "./arbitraries";
import { asClient, check, describeRequest, expectHealthy, expectNoServerError, type Sent, send } from "./harness";

/**
 * What the fourth outside test found, as properties: any method on the landing page's
 * sample piece followed by a GET of the same path, and oversized unsigned bodies sent to the
 * vendors' webhook receivers. Every answer is under 500 and none is slow.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

const MiB = 1024 * 1024;

test("any method on /sample-piece/{side}, then GET of the same path: never a 5xx, 404 for an unknown side, both sides still served", async () => {
  const side = fc.oneof(
    fc.constantFrom("front.png", "back.png", "front", "back", "toString", "__proto__", "front.png.png"),
    fc.stringMatching(/^[\w.~-]{1,60}$/).filter((s) => s !== "." && s !== ".."),
  );
  await check(
    "sample piece after any method",
    fc.record({ side, method: fc.constantFrom(...METHODS), client: fc.nat() }),
    60,
    async ({ side, method, client }) => {
      const path = `/sample-piece/${encodeURIComponent(side)}`;
      const first: Sent = { method, path, headers: asClient({}, client) };
      expectNoServerError(await send(first), first);
      const get: Sent = { method: "GET", path, headers: asClient({}, client) };
      const reply = await send(get);
      expectNoServerError(reply, get);
      const known = side === "front.png" || side === "back.png";
      expect(reply.status, describeRequest(get)).toBe(known ? 200 : 404);
    },
  );
  for (const side of ["front.png", "back.png"]) {
    const reply = await send({ method: "GET", path: `/sample-piece/${side}` });
    expect([reply.status, reply.headers["content-type"]]).toEqual([200, "image/png"]);
  }
  await expectHealthy();
});

test("oversized unsigned bodies to the webhook receivers: 413 at once, whatever the path's id", async () => {
  const connectionId = fc.oneof(
    fc.stringMatching(/^pvc_[0-9a-f]{32}$/),
    fc.stringMatching(/^[\w.~-]{1,80}$/).filter((s) => s !== "." && s !== ".."),
  );
  const receiver = fc.oneof(
    connectionId.map((id) => `/api/webhooks/lob/${encodeURIComponent(id)}`),
    fc.constant("/api/webhooks/stripe"),
  );
  await check(
    "webhook receivers refuse oversized bodies",
    fc.record({ path: receiver, bytes: fc.integer({ min: MiB + 1, max: 12 * MiB }), signed: fc.boolean() }),
    12,
    async ({ path, bytes, signed }) => {
      const req: Sent = {
        method: "POST",
        path,
        headers: asClient(
          {
            "Content-Type": "application/json",
            ...(signed
              ? path.includes("/lob/")
                ? { "Lob-Signature": "ab".repeat(32), "Lob-Signature-Timestamp": String(Date.now()) }
                : { "Stripe-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}` }
              : {}),
          },
          0x4601,
        ),
        body: Buffer.alloc(bytes, 0x20),
      };
      const started = Date.now();
      const reply = await send(req);
      expectNoServerError(reply, req);
      // Stripe's receiver answers 404 where Stripe billing is not configured; it reads nothing then either.
      if (path.includes("/lob/") || reply.status !== 404) expect(reply.status, describeRequest(req)).toBe(413);
      expect(Date.now() - started, "refused without reading the whole body").toBeLessThan(15_000);
    },
  );
  await expectHealthy();
});
