import { randomBytes } from "node:crypto";
import { demo } from "../support/demo";
import { type Api, expect, takeKey, test } from "../support/api";

const uid = () => randomBytes(6).toString("hex");
/** The status read's members, without those naming the contact (contactId, contactEmail, contactCrmIds: checked on their own). */
const eventKeys = (body: Record<string, unknown>) =>
  Object.keys(body)
    .filter((k) => !k.startsWith("contact"))
    .sort();

/** Polls the status read until the event leaves the transient statuses. */
async function settled(api: Api, campaignId: string, eventId: string, key: string, until: (status: string) => boolean) {
  for (let i = 0; i < 60; i++) {
    const res = await api.getEvent(campaignId, eventId, key);
    if (until(res.body.status)) return res;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`event ${eventId} did not settle`);
}

test.describe("the lifecycle behind the status read", () => {
  test("each path shows its status, and optional members appear only with a value", async ({ api }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const campaign = acme.campaigns.liveApiEntry;
    const post = async (contactId: string) =>
      (await api.postEvent(campaign, { contactId, idempotencyKey: `life-${uid()}` }, key)).body.eventId as string;

    const capped = await settled(api, campaign, await post(acme.contacts.frequencyCapped), key, (s) => s === "waiting");
    expect(eventKeys(capped.body)).toEqual([
      "enrollmentId",
      "eventId",
      "occurredAt",
      "status",
      "waitingReason",
      "waitingUntil",
    ]);
    expect(capped.body.enrollmentId).toMatch(/^enr_/);
    // The contact as the caller's systems know it, beside our id.
    expect(capped.body).toMatchObject({
      contactId: acme.contacts.frequencyCapped,
      contactCrmIds: expect.any(Array),
    });
    // While it waits, the read says why and until when.
    expect(capped.body.waitingReason).toBe("frequency_cap");
    expect(Date.parse(capped.body.waitingUntil)).toBeGreaterThan(Date.now());

    const undeliverable = await settled(
      api,
      campaign,
      await post(acme.contacts.undeliverable),
      key,
      (s) => s === "skipped",
    );
    expect(eventKeys(undeliverable.body)).toEqual(["completedAt", "eventId", "occurredAt", "skipReason", "status"]);
    expect(undeliverable.body.skipReason).toBe("address_invalid");

    const held = await settled(api, campaign, await post(acme.contacts.heldOut), key, (s) => s === "held_out");
    expect(eventKeys(held.body)).toEqual(["completedAt", "enrollmentId", "eventId", "occurredAt", "status"]);

    const suppressed = await settled(api, campaign, await post(acme.contacts.suppressed), key, (s) => s === "skipped");
    expect(suppressed.body.skipReason).toBe("suppressed");

    const noBudget = await api.postEvent(
      acme.campaigns.budgetExhausted,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: `life-${uid()}` },
      key,
    );
    const exhausted = await settled(api, acme.campaigns.budgetExhausted, noBudget.body.eventId, key, (s) =>
      ["skipped", "held_out"].includes(s),
    );
    if (exhausted.body.status === "skipped") expect(exhausted.body.skipReason).toBe("budget_exhausted");
  });

  test("on the free audit plan nothing reaches a mailbox, and the event says so", async ({ api }) => {
    const { globex } = demo().workspaces;
    const key = takeKey("globex", "full");
    const ids = [];
    for (const contactId of globex.contacts.inAudience.slice(0, 6)) {
      ids.push(
        (await api.postEvent(globex.campaigns.liveApiEntry, { contactId, idempotencyKey: `audit-${uid()}` }, key)).body
          .eventId,
      );
    }
    const outcomes = await Promise.all(
      ids.map((id) =>
        settled(api, globex.campaigns.liveApiEntry, id, key, (s) => ["skipped", "held_out", "completed"].includes(s)),
      ),
    );
    for (const o of outcomes.filter((o) => o.body.status !== "held_out"))
      expect(o.body).toMatchObject({ status: "skipped", skipReason: "mailing_disabled" });
    expect(outcomes.some((o) => o.body.status === "completed")).toBe(false);
  });
});

test.describe("response links", () => {
  test("a printed link redirects to the destination with the sid, and unknown codes reveal nothing", async ({
    request,
  }) => {
    const { acme } = demo().workspaces;
    const scan = await request.get(`/r/${acme.responseCodes[0]}?via=qr`, { maxRedirects: 0 });
    expect(scan.status()).toBe(302);
    expect(scan.headers().location).toBe(`https://www.acme.example/welcome?sid=${acme.sids[0]}`);
    expect(scan.headers()["cache-control"]).toBe("no-store");
    const click = await request.get(`/r/${acme.responseCodes[1]}`, { maxRedirects: 0 });
    expect(click.headers().location).toContain(`sid=${acme.sids[1]}`);

    for (const code of ["ZZZZZZZZZZ", "nope", "%2e%2e%2fetc"]) {
      const res = await request.get(`/r/${code}`, { maxRedirects: 0 });
      expect(res.status()).toBe(404);
      expect(res.headers()["content-type"]).toContain("text/html");
      expect(await res.text()).not.toMatch(/sid|campaign|workspace/i);
    }
  });
});

test.describe("a gift that waits for its recipient's claim", () => {
  test("the status read says it waits for the claim, until when; hosted-page actions cannot be reported as conversions", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    // Contacts of the gift campaign's audience; an account may be held out, so a few are posted.
    const contacts = acme.contacts.inAudience.slice(-4);
    const events = [];
    for (const contactId of contacts) {
      const posted = await api.postEvent(
        acme.campaigns.giftClaim!,
        { contactId, idempotencyKey: `gift-${uid()}` },
        key,
      );
      expect(posted.status).toBe(202);
      events.push(
        await settled(api, acme.campaigns.giftClaim!, posted.body.eventId, key, (s) =>
          ["waiting", "held_out", "skipped", "completed"].includes(s),
        ),
      );
    }
    const waiting = events.filter((e) => e.body.status === "waiting");
    expect(waiting.length).toBeGreaterThan(0);
    expect(events.some((e) => e.body.status === "completed")).toBe(false);
    for (const e of waiting) {
      expect(e.body.waitingReason).toBe("gift_claim");
      expect(Date.parse(e.body.waitingUntil)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    }
    for (const kind of ["page_view", "gift_claim", "meeting_click"]) {
      const reported = await api.call("POST", "/api/v1/conversions", { key, body: { sid: acme.sids[0], kind } });
      expect(reported.status, kind).toBe(422);
    }
  });
});
