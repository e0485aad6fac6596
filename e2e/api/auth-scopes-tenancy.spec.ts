import { randomBytes } from "node:crypto";
import { demo } from "../support/demo";
import { expect, expectProblem, revokedKey, takeKey, test, withoutInstance } from "../support/api";

const uid = () => randomBytes(6).toString("hex");

test.describe("authentication", () => {
  test("no key, a non-Bearer scheme, a malformed, an unknown and a revoked key all get 401", async ({ api }) => {
    const { acme } = demo().workspaces;
    const path = `/api/v1/campaigns/${acme.campaigns.liveApiEntry}/events`;
    const body = { contactId: acme.contacts.inAudience[0], idempotencyKey: `auth-${uid()}` };
    const cases: { name: string; headers: Record<string, string>; challenge: string | RegExp }[] = [
      { name: "none", headers: {}, challenge: 'Bearer realm="direct-mail"' },
      { name: "basic", headers: { Authorization: "Basic dXNlcjpwYXNz" }, challenge: 'Bearer realm="direct-mail"' },
      { name: "malformed", headers: { Authorization: "Bearer not-a-key" }, challenge: /error="invalid_token"/ },
      { name: "empty bearer", headers: { Authorization: "Bearer " }, challenge: /error="invalid_token"/ },
      {
        name: "unknown",
        headers: { Authorization: `Bearer dmk_${"A".repeat(32)}` },
        challenge: /error="invalid_token"/,
      },
      {
        name: "revoked",
        headers: { Authorization: `Bearer ${revokedKey("acme")}` },
        challenge: /error="invalid_token"/,
      },
    ];
    for (const c of cases) {
      const res = await api.call("POST", path, { body, headers: c.headers });
      expectProblem(res, 401, "unauthenticated");
      if (typeof c.challenge === "string") expect(res.headers["www-authenticate"], c.name).toBe(c.challenge);
      else expect(res.headers["www-authenticate"], c.name).toMatch(c.challenge);
    }
    // The other two endpoints answer the same way.
    const read = await api.getEvent(acme.campaigns.liveApiEntry, "evt_x", revokedKey("acme"));
    expectProblem(read, 401, "unauthenticated");
    const conversion = await api.postConversion({ sid: acme.sids[0], kind: "reply" });
    expectProblem(conversion, 401, "unauthenticated");
    expect(conversion.headers["www-authenticate"]).toBe('Bearer realm="direct-mail"');
    // Nothing was written under that idempotency key: a valid key can still use it with any data.
    const ok = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { ...body, contactId: acme.contacts.inAudience[1] },
      takeKey("acme", "full"),
    );
    expect(ok.status).toBe(202);
  });
});

test.describe("scopes", () => {
  test("every key kind against every endpoint", async ({ api }) => {
    const { acme } = demo().workspaces;
    const full = takeKey("acme", "full");
    const fullsEvent = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[2], idempotencyKey: `scope-${uid()}` },
      full,
    );
    expect(fullsEvent.status).toBe(202);
    const expected = {
      full: { post: 202, get: 200, conversion: 202 },
      entryOnly: { post: 202, get: 200, conversion: 403 },
      conversionsOnly: { post: 403, get: 403, conversion: 202 },
    } as const;
    for (const kind of ["full", "entryOnly", "conversionsOnly"] as const) {
      const key = kind === "full" ? full : takeKey("acme", kind);
      const post = await api.postEvent(
        acme.campaigns.liveApiEntry,
        { contactId: acme.contacts.inAudience[3], idempotencyKey: `scope-${kind}-${uid()}` },
        key,
      );
      // Each key reads the event it posted itself (or, if it may not post, the full key's).
      const eventId = post.status === 202 ? post.body.eventId : fullsEvent.body.eventId;
      const get = await api.getEvent(acme.campaigns.liveApiEntry, eventId, key);
      const conversion = await api.postConversion(
        { sid: acme.sids[0], kind: "reply", externalId: `scope-${kind}-${uid()}` },
        key,
      );
      expect({ post: post.status, get: get.status, conversion: conversion.status }, kind).toEqual(expected[kind]);
      for (const res of [post, get, conversion].filter((r) => r.status === 403)) {
        expectProblem(res, 403, "insufficient-scope");
        expect(res.headers["www-authenticate"]).toMatch(
          /^Bearer realm="direct-mail", error="insufficient_scope", scope="(post_entry_events|post_conversions)"/,
        );
      }
    }
  });

  test("a 403 names the scope the endpoint needs", async ({ api }) => {
    const { acme } = demo().workspaces;
    const res = await api.postConversion({ sid: acme.sids[0], kind: "reply" }, takeKey("acme", "entryOnly"));
    expect(res.headers["www-authenticate"]).toContain('scope="post_conversions"');
    const res2 = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: uid() },
      takeKey("acme", "conversionsOnly"),
    );
    expect(res2.headers["www-authenticate"]).toContain('scope="post_entry_events"');
  });
});

test.describe("tenancy and the sameness of 404", () => {
  test("each workspace's keys against the other's campaigns, events and sids: the same 404 as for missing ones", async ({
    api,
  }) => {
    const { acme, globex } = demo().workspaces;
    const acmeKey = takeKey("acme", "full");
    const acmeKey2 = takeKey("acme", "full");
    const globexKey = takeKey("globex", "full");
    const acmeEvent = (
      await api.postEvent(
        acme.campaigns.liveApiEntry,
        { contactId: acme.contacts.inAudience[0], idempotencyKey: `t-${uid()}` },
        acmeKey,
      )
    ).body.eventId;
    const globexEvent = (
      await api.postEvent(
        globex.campaigns.liveApiEntry,
        { contactId: globex.contacts.inAudience[0], idempotencyKey: `t-${uid()}` },
        globexKey,
      )
    ).body.eventId;
    expect(acmeEvent).toMatch(/^evt_/);
    expect(globexEvent).toMatch(/^evt_/);

    const cases = {
      "missing campaign (post)": await api.postEvent(
        "cmp_doesnotexist",
        { contactId: acme.contacts.inAudience[0], idempotencyKey: uid() },
        acmeKey,
      ),
      "other workspace's campaign (post)": await api.postEvent(
        globex.campaigns.liveApiEntry,
        { contactId: globex.contacts.inAudience[0], idempotencyKey: uid() },
        acmeKey,
      ),
      "missing campaign (get)": await api.getEvent("cmp_doesnotexist", acmeEvent, acmeKey),
      "event of another campaign": await api.getEvent(acme.campaigns.liveNoApiEntry, acmeEvent, acmeKey),
      "missing event": await api.getEvent(acme.campaigns.liveApiEntry, "evt_doesnotexist", acmeKey),
      "other workspace's event": await api.getEvent(globex.campaigns.liveApiEntry, globexEvent, acmeKey),
      "other workspace's event (globex key, acme event)": await api.getEvent(
        acme.campaigns.liveApiEntry,
        acmeEvent,
        globexKey,
      ),
      "another key's event": await api.getEvent(acme.campaigns.liveApiEntry, acmeEvent, acmeKey2),
      "unknown sid": await api.postConversion({ sid: "ZZZZZZZZZZZZZZZZ", kind: "reply" }, acmeKey),
      "other workspace's sid": await api.postConversion({ sid: globex.sids[0], kind: "reply" }, acmeKey),
      "other workspace's sid (globex key)": await api.postConversion({ sid: acme.sids[0], kind: "reply" }, globexKey),
    };
    const reference = withoutInstance(cases["missing campaign (post)"].body);
    for (const [name, res] of Object.entries(cases)) {
      expectProblem(res, 404, "not-found");
      expect(withoutInstance(res.body), name).toEqual(reference);
    }
    expect(reference).toMatchObject({
      title: "Not found",
      detail: "Nothing with that identifier is visible to this key.",
    });

    // And the owner's own key still sees its own event.
    const own = await api.getEvent(acme.campaigns.liveApiEntry, acmeEvent, acmeKey);
    expect(own.status).toBe(200);
  });
});

test.describe("routing", () => {
  test("an unknown path is a 404 problem and a known path with another method is 405 with Allow", async ({ api }) => {
    const key = takeKey("acme", "full");
    const unknown = await api.call("GET", "/api/v1/contacts", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.headers["content-type"]).toBe("application/problem+json");
    const wrongMethod = await api.call("DELETE", "/api/v1/conversions", { key });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("POST");
    expect(wrongMethod.body.type).toMatch(/\/problems\/method-not-allowed$/);
  });
});
