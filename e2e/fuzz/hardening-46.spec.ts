import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { asClient, check, describeRequest, expectHealthy, expectNoServerError, type Sent, send } from "./harness";

/**
 * What the fourth outside test found (issue 46), as properties: oversized unsigned bodies sent to
 * the vendors' webhook receivers. Every answer is under 500 and none is slow.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

const MiB = 1024 * 1024;

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
