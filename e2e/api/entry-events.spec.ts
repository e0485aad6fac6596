import { randomBytes } from "node:crypto";
import { demo } from "../support/demo";
import { expect, expectProblem, RATE_HEADERS, takeKey, test } from "../support/api";

const uid = () => randomBytes(6).toString("hex");
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

test.describe("POST /api/v1/campaigns/{campaignId}/events", () => {
  test("accepts an event: 202, eventId and status, Location to its status read, rate-limit headers", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const res = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: `a-${uid()}`, occurredAt: "2026-11-01T09:30:00-05:00" },
      key,
    );
    expect(res.status).toBe(202);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.body).toEqual({ eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/), status: "accepted" });
    expect(res.headers.location).toBe(`/api/v1/campaigns/${acme.campaigns.liveApiEntry}/events/${res.body.eventId}`);
    for (const h of RATE_HEADERS) expect(res.headers[h]).toBeDefined();
    expect(res.headers["ratelimit-policy"]).toBe('"per-key-endpoint";q=60;w=60');
    expect(res.headers.ratelimit).toMatch(/^"per-key-endpoint";r=59;t=\d+$/);

    const read = await api.call("GET", res.headers.location, { key });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ eventId: res.body.eventId, occurredAt: "2026-11-01T14:30:00.000Z" });
  });

  test("a contact that is suppressed is still accepted: suppression is a lifecycle gate, not a precondition", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const res = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.suppressed, idempotencyKey: `s-${uid()}` },
      takeKey("acme", "full"),
    );
    expect(res.status).toBe(202);
  });

  test("replaying the same body returns the same event; the same key with other data is 409, for any campaign", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const body = {
      contactId: acme.contacts.inAudience[1],
      idempotencyKey: `r-${uid()}`,
      occurredAt: "2026-11-02T10:00:00Z",
    };
    const first = await api.postEvent(acme.campaigns.liveApiEntry, body, key);
    expect(first.status).toBe(202);
    // The same instant written with another offset is the same data.
    const again = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { ...body, occurredAt: "2026-11-02T11:00:00+01:00" },
      key,
    );
    expect(again.status).toBe(202);
    expect(again.body.eventId).toBe(first.body.eventId);
    // Another key of the same workspace replays it too: keys are scoped to the workspace.
    const otherKey = await api.postEvent(acme.campaigns.liveApiEntry, body, takeKey("acme", "full"));
    expect(otherKey.body.eventId).toBe(first.body.eventId);

    for (const changed of [
      { ...body, contactId: acme.contacts.inAudience[2] },
      { ...body, occurredAt: "2026-11-02T10:00:01Z" },
      { contactId: body.contactId, idempotencyKey: body.idempotencyKey },
    ]) {
      const res = await api.postEvent(acme.campaigns.liveApiEntry, changed, key);
      expectProblem(res, 409, "idempotency-key-reused");
      expect(res.body.errors).toEqual([{ pointer: "/idempotencyKey", detail: expect.any(String) }]);
    }
    // Another campaign that accepts events: still 409 (the key is the workspace's).
    const crossCampaign = await api.postEvent(acme.campaigns.liveNoApiEntry, body, key);
    expect(crossCampaign.status).toBe(409);
  });

  test("preconditions: not live, policy refuses API events, contact missing, contact outside the audience", async ({
    api,
  }) => {
    const { acme, globex } = demo().workspaces;
    const key = takeKey("acme", "full");
    const keys = Array.from({ length: 5 }, (_, i) => `p${i}-${uid()}`);
    const notLive = await api.postEvent(
      acme.campaigns.draft,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: keys[0] },
      key,
    );
    expectProblem(notLive, 409, "campaign-not-live");
    expect(notLive.body.detail).toBe(
      "The campaign is draft; entry events are accepted only while it is live. Nothing was written.",
    );
    const policy = await api.postEvent(
      acme.campaigns.liveNoApiEntry,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: keys[1] },
      key,
    );
    expectProblem(policy, 409, "api-entry-not-accepted");
    const missing = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: "ctc_doesnotexist", idempotencyKey: keys[2] },
      key,
    );
    expectProblem(missing, 422, "contact-not-found");
    expect(missing.body.errors).toEqual([
      { pointer: "/contactId", detail: "No contact with this id exists in the workspace." },
    ]);
    const outsider = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.notInAudience, idempotencyKey: keys[3] },
      key,
    );
    expectProblem(outsider, 422, "contact-not-in-audience");
    const foreignContact = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: globex.contacts.inAudience[0], idempotencyKey: keys[4] },
      key,
    );
    expectProblem(foreignContact, 422, "contact-not-found");

    // Nothing was written: every one of those idempotency keys still takes a valid, different event.
    for (const [i, idempotencyKey] of keys.entries()) {
      const res = await api.postEvent(
        acme.campaigns.liveApiEntry,
        { contactId: acme.contacts.inAudience[10 + i], idempotencyKey },
        key,
      );
      expect(res.status, idempotencyKey).toBe(202);
    }
  });

  test("invalid fields: 422 naming each field with a JSON pointer and a sentence; nothing written", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const contactId = acme.contacts.inAudience[0];
    const idempotencyKey = `v-${uid()}`;
    const cases: [string, Record<string, unknown>, { pointer: string; detail: string | RegExp }[]][] = [
      [
        "empty body",
        {},
        [
          { pointer: "/contactId", detail: "contactId is required." },
          { pointer: "/idempotencyKey", detail: "idempotencyKey is required." },
        ],
      ],
      [
        "wrong types",
        { contactId: 42, idempotencyKey: ["x"] },
        [
          { pointer: "/contactId", detail: "contactId must be a string, not number." },
          { pointer: "/idempotencyKey", detail: "idempotencyKey must be a string, not an array." },
        ],
      ],
      [
        "null",
        { contactId: null, idempotencyKey },
        [{ pointer: "/contactId", detail: "contactId must be a string, not null." }],
      ],
      [
        "empty strings",
        { contactId: "", idempotencyKey },
        [{ pointer: "/contactId", detail: "contactId must not be empty." }],
      ],
      [
        "too long",
        { contactId: "c".repeat(201), idempotencyKey: "k".repeat(201) },
        [
          { pointer: "/contactId", detail: "contactId must be at most 200 characters." },
          { pointer: "/idempotencyKey", detail: "idempotencyKey must be at most 200 characters." },
        ],
      ],
      [
        "no offset",
        { contactId, idempotencyKey, occurredAt: "2026-11-01T10:00:00" },
        [{ pointer: "/occurredAt", detail: /must be an ISO 8601 date-time with a time-zone offset/ }],
      ],
      [
        "a date only",
        { contactId, idempotencyKey, occurredAt: "2026-11-01" },
        [{ pointer: "/occurredAt", detail: /time-zone offset/ }],
      ],
      [
        "not a date",
        { contactId, idempotencyKey, occurredAt: "yesterday" },
        [{ pointer: "/occurredAt", detail: /ISO 8601/ }],
      ],
      [
        "in the future",
        { contactId, idempotencyKey, occurredAt: iso(10 * 60_000) },
        [
          {
            pointer: "/occurredAt",
            detail: "occurredAt must not be in the future (more than 5 minutes ahead of the service's clock).",
          },
        ],
      ],
      [
        "unknown field",
        { contactId, idempotencyKey, colour: "red" },
        [
          {
            pointer: "/colour",
            detail: "colour is not a field of this request; the fields are contactId, idempotencyKey, occurredAt.",
          },
        ],
      ],
      [
        "path parameter in the body",
        { contactId, idempotencyKey, campaignId: acme.campaigns.draft },
        [{ pointer: "/campaignId", detail: /campaignId is part of the URL/ }],
      ],
    ];
    for (const [name, body, errors] of cases) {
      const res = await api.postEvent(acme.campaigns.liveApiEntry, body, key);
      expectProblem(res, 422, "validation-failed");
      expect(res.body.errors, name).toEqual(
        errors.map((e) => ({
          pointer: e.pointer,
          detail: typeof e.detail === "string" ? e.detail : expect.stringMatching(e.detail),
        })),
      );
      expect(res.body.detail).toMatch(/Nothing was written\.$/);
    }
    // None of them wrote anything under idempotencyKey: it still takes any valid event.
    const valid = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[4], idempotencyKey },
      key,
    );
    expect(valid.status).toBe(202);
  });

  test("a small clock skew is allowed", async ({ api }) => {
    const { acme } = demo().workspaces;
    const res = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: `skew-${uid()}`, occurredAt: iso(4 * 60_000) },
      takeKey("acme", "full"),
    );
    expect(res.status).toBe(202);
  });

  test("bodies that cannot be read: malformed JSON, not an object, not JSON, too large", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const path = `/api/v1/campaigns/${acme.campaigns.liveApiEntry}/events`;
    const json = { "Content-Type": "application/json" };
    expectProblem(
      await api.call("POST", path, { key, raw: '{"contactId": ', headers: json }),
      400,
      "malformed-request",
    );
    expectProblem(await api.call("POST", path, { key, raw: "", headers: json }), 400, "malformed-request");
    expectProblem(await api.call("POST", path, { key, raw: '["a"]', headers: json }), 400, "malformed-request");
    expectProblem(
      await api.call("POST", path, {
        key,
        raw: "contactId=x",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      415,
      "unsupported-media-type",
    );
    expectProblem(await api.call("POST", path, { key, raw: "{}" }), 415, "unsupported-media-type");
    const big = JSON.stringify({
      contactId: acme.contacts.inAudience[0],
      idempotencyKey: `big-${uid()}`,
      pad: "x".repeat(17 * 1024),
    });
    expectProblem(await api.call("POST", path, { key, raw: big, headers: json }), 413, "payload-too-large");
    // JSON with a charset parameter is fine.
    const ok = await api.call("POST", path, {
      key,
      raw: JSON.stringify({ contactId: acme.contacts.inAudience[0], idempotencyKey: `cs-${uid()}` }),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(ok.status).toBe(202);
  });

  test("50 identical requests at once create one event and all get 202 with its id", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const body = {
      contactId: acme.contacts.inAudience[6],
      idempotencyKey: `c-${uid()}`,
      occurredAt: "2026-11-03T08:00:00Z",
    };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => api.postEvent(acme.campaigns.liveApiEntry, body, key)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(202));
    expect(new Set(results.map((r) => r.body.eventId)).size).toBe(1);
  });

  test("50 conflicting requests at once: one event, 409 for the rest", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const idempotencyKey = `cc-${uid()}`;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.postEvent(
          acme.campaigns.liveApiEntry,
          {
            contactId: acme.contacts.inAudience[i % 20],
            idempotencyKey,
            occurredAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
          },
          key,
        ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([202, ...Array(49).fill(409)]);
  });
});

test.describe("GET /api/v1/campaigns/{campaignId}/events/{eventId}", () => {
  test("reads the bounded status with the key that posted it", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "entryOnly");
    const posted = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[7], idempotencyKey: `g-${uid()}` },
      key,
    );
    const res = await api.getEvent(acme.campaigns.liveApiEntry, posted.body.eventId, key);
    expect(res.status).toBe(200);
    expect(res.body.eventId).toBe(posted.body.eventId);
    expect(["accepted", "processing", "waiting", "enrolled", "held_out", "completed", "skipped", "failed"]).toContain(
      res.body.status,
    );
    for (const optional of ["skipReason", "enrollmentId", "completedAt"]) {
      if (optional in res.body) expect(res.body[optional]).not.toBeNull();
    }
    for (const h of RATE_HEADERS) expect(res.headers[h]).toBeDefined();
  });
});
