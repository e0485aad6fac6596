import { randomBytes } from "node:crypto";
import { demo } from "../support/demo";
import { expect, expectProblem, RATE_HEADERS, takeKey, test } from "../support/api";

const uid = () => randomBytes(6).toString("hex");

test.describe("POST /api/v1/conversions", () => {
  test("accepts a report: 202 with outcomeId, status and at", async ({ api }) => {
    const { acme } = demo().workspaces;
    const res = await api.postConversion(
      {
        sid: acme.sids[1],
        kind: "closed_won",
        amountCents: 4_800_000,
        at: "2026-11-20T17:30:00-05:00",
        externalId: `opp-${uid()}`,
      },
      takeKey("acme", "full"),
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      outcomeId: expect.stringMatching(/^out_[0-9a-f]{32}$/),
      status: "accepted",
      at: "2026-11-20T22:30:00.000Z",
    });
    for (const h of RATE_HEADERS) expect(res.headers[h]).toBeDefined();
  });

  test("retrying the same minimal body is idempotent; a minimal body of another kind is another occurrence", async ({
    api,
  }) => {
    const { globex } = demo().workspaces;
    const key = takeKey("globex", "conversionsOnly");
    const first = await api.postConversion({ sid: globex.sids[0], kind: "meeting_booked" }, key);
    const retry = await api.postConversion({ sid: globex.sids[0], kind: "meeting_booked" }, key);
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body).toEqual(first.body);
    const other = await api.postConversion({ sid: globex.sids[0], kind: "signup" }, key);
    expect(other.status).toBe(202);
    expect(other.body.outcomeId).not.toBe(first.body.outcomeId);
  });

  test("occurrences: distinct externalId or at are distinct outcomes; reusing an identity with other values is 409", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const sid = acme.sids[2];
    const a = await api.postConversion({ sid, kind: "purchase", amountCents: 1000, externalId: `ord-${uid()}` }, key);
    const b = await api.postConversion({ sid, kind: "purchase", amountCents: 1000, externalId: `ord-${uid()}` }, key);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.outcomeId).not.toBe(b.body.outcomeId);

    const atBody = { sid, kind: "reply" as const, at: "2026-11-10T12:00:00Z" };
    const t1 = await api.postConversion(atBody, key);
    const t2 = await api.postConversion({ ...atBody, at: "2026-11-10T12:05:00Z" }, key);
    const t1again = await api.postConversion({ ...atBody, at: "2026-11-10T07:00:00-05:00" }, key);
    expect(t1.body.outcomeId).not.toBe(t2.body.outcomeId);
    expect(t1again.body.outcomeId).toBe(t1.body.outcomeId);

    const externalId = `deal-${uid()}`;
    const won = await api.postConversion({ sid, kind: "closed_won", amountCents: 250_000, externalId }, key);
    expect(won.status).toBe(202);
    for (const changed of [
      { sid, kind: "closed_won", amountCents: 260_000, externalId },
      { sid, kind: "closed_won", amountCents: 250_000, externalId, at: "2026-11-11T00:00:00Z" },
    ]) {
      expectProblem(await api.postConversion(changed, key), 409, "conversion-conflict");
    }
    // The same externalId under another kind is another occurrence.
    expect((await api.postConversion({ sid, kind: "opportunity_created", externalId }, key)).status).toBe(202);
  });

  test("invalid fields: 422 naming each field; nothing written", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const sid = acme.sids[0];
    const externalId = `inv-${uid()}`;
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [string, Record<string, unknown>, { pointer: string; detail: string | RegExp }[]][] = [
      [
        "empty",
        {},
        [
          { pointer: "/sid", detail: "sid is required." },
          { pointer: "/kind", detail: "kind is required." },
        ],
      ],
      [
        "short sid",
        { sid: "abc", kind: "reply", externalId },
        [{ pointer: "/sid", detail: "sid must be exactly 16 letters and digits, as read from the destination URL." }],
      ],
      ["17-char sid", { sid: `${sid}x`, kind: "reply", externalId }, [{ pointer: "/sid", detail: /exactly 16/ }]],
      [
        "bad kind",
        { sid, kind: "demo_booked", externalId },
        [
          {
            pointer: "/kind",
            detail:
              /^kind must be one of reply, meeting_booked, opportunity_created, signup, trial_started, purchase, pipeline_dollars, closed_won\.$/,
          },
        ],
      ],
      [
        "money without amount",
        { sid, kind: "pipeline_dollars", externalId },
        [{ pointer: "/amountCents", detail: "amountCents is required when kind is pipeline_dollars." }],
      ],
      [
        "amount on a reply",
        { sid, kind: "reply", amountCents: 5, externalId },
        [{ pointer: "/amountCents", detail: /applies only to purchase, pipeline_dollars, closed_won/ }],
      ],
      [
        "negative amount",
        { sid, kind: "purchase", amountCents: -1, externalId },
        [{ pointer: "/amountCents", detail: "amountCents must not be negative." }],
      ],
      [
        "fractional amount",
        { sid, kind: "purchase", amountCents: 10.5, externalId },
        [{ pointer: "/amountCents", detail: "amountCents must be a whole number of cents." }],
      ],
      [
        "amount as a string",
        { sid, kind: "purchase", amountCents: "100", externalId },
        [{ pointer: "/amountCents", detail: "amountCents must be an integer number of cents, not string." }],
      ],
      [
        "future at",
        { sid, kind: "reply", at: future, externalId },
        [{ pointer: "/at", detail: /must not be in the future/ }],
      ],
      [
        "at without offset",
        { sid, kind: "reply", at: "2026-11-01T10:00:00", externalId },
        [{ pointer: "/at", detail: /time-zone offset/ }],
      ],
      [
        "long externalId",
        { sid, kind: "reply", externalId: "e".repeat(201) },
        [{ pointer: "/externalId", detail: "externalId must be at most 200 characters." }],
      ],
      [
        "unknown field",
        { sid, kind: "reply", externalId, source: "hubspot" },
        [
          {
            pointer: "/source",
            detail: "source is not a field of this request; the fields are sid, kind, amountCents, at, externalId.",
          },
        ],
      ],
    ];
    for (const [name, body, errors] of cases) {
      const res = await api.postConversion(body, key);
      expectProblem(res, 422, "validation-failed");
      expect(res.body.errors, name).toEqual(
        errors.map((e) => ({
          pointer: e.pointer,
          detail: typeof e.detail === "string" ? e.detail : expect.stringMatching(e.detail),
        })),
      );
    }
    // Nothing was written for that externalId: a valid report with it and any values is accepted.
    expect((await api.postConversion({ sid, kind: "reply", externalId }, key)).status).toBe(202);
  });

  test("bodies that cannot be read", async ({ api }) => {
    const key = takeKey("acme", "full");
    expectProblem(
      await api.call("POST", "/api/v1/conversions", { key, raw: "{", headers: { "Content-Type": "application/json" } }),
      400,
      "malformed-request",
    );
    expectProblem(
      await api.call("POST", "/api/v1/conversions", { key, raw: "sid=x", headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported-media-type",
    );
    expectProblem(
      await api.call("POST", "/api/v1/conversions", {
        key,
        raw: JSON.stringify({ pad: "x".repeat(20_000) }),
        headers: { "Content-Type": "application/json" },
      }),
      413,
      "payload-too-large",
    );
  });

  test("50 identical reports at once record one outcome; 50 conflicting ones record one and get 409 for the rest", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const same = { sid: acme.sids[0], kind: "trial_started", externalId: `par-${uid()}` };
    const key = takeKey("acme", "full");
    const identical = await Promise.all(Array.from({ length: 50 }, () => api.postConversion(same, key)));
    expect(identical.map((r) => r.status)).toEqual(Array(50).fill(202));
    expect(new Set(identical.map((r) => r.body.outcomeId)).size).toBe(1);

    const externalId = `par-c-${uid()}`;
    const key2 = takeKey("acme", "full");
    const conflicting = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.postConversion({ sid: acme.sids[0], kind: "purchase", amountCents: 100 + i, externalId }, key2),
      ),
    );
    expect(conflicting.map((r) => r.status).sort()).toEqual([202, ...Array(49).fill(409)]);
  });
});
