import { randomBytes } from "node:crypto";
import { demo } from "../support/demo";
import { expect, expectProblem, takeKey, test } from "../support/api";

test.describe("rate limit: 60 requests a minute per key and endpoint", () => {
  test("61 parallel requests: exactly 60 admitted, one 429 with Retry-After; another endpoint keeps its own quota", async ({
    api,
  }) => {
    const { acme } = demo().workspaces;
    const key = takeKey("acme", "full");
    const sid = acme.sids[0];
    // Wait for a fresh minute if this one is nearly over, so all 61 land in one window.
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 15) await new Promise((r) => setTimeout(r, secondsLeft * 1000 + 200));
    const tag = randomBytes(4).toString("hex");
    const results = await Promise.all(
      Array.from({ length: 61 }, (_, i) =>
        api.postConversion({ sid, kind: "reply", externalId: `rl-${tag}-${i}` }, key),
      ),
    );
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 202)).toHaveLength(60);
    expect(limited).toHaveLength(1);
    const [over] = limited;
    expectProblem(over, 429, "rate-limited");
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(over.headers["x-ratelimit-remaining"]).toBe("0");
    expect(over.headers.ratelimit).toMatch(/^"per-key-endpoint";r=0;t=\d+$/);
    const remaining = results.map((r) => Number(r.headers["x-ratelimit-remaining"])).sort((a, b) => a - b);
    expect(remaining).toEqual([0, ...Array.from({ length: 60 }, (_, i) => i)]);

    // The entry-event endpoint is counted separately for the same key.
    const other = await api.postEvent(
      acme.campaigns.liveApiEntry,
      { contactId: acme.contacts.inAudience[0], idempotencyKey: `rl-${tag}` },
      key,
    );
    expect(other.status).toBe(202);
    expect(other.headers["x-ratelimit-remaining"]).toBe("59");
    // Another key is not affected.
    expect(
      (await api.postConversion({ sid, kind: "reply", externalId: `rl-${tag}-other` }, takeKey("acme", "full"))).status,
    ).toBe(202);
  });

  test("each endpoint answers 429 past its quota, even for requests that fail otherwise", async ({ api }) => {
    const { acme } = demo().workspaces;
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 15) await new Promise((r) => setTimeout(r, secondsLeft * 1000 + 200));
    const getKey = takeKey("acme", "full");
    const reads = await Promise.all(
      Array.from({ length: 61 }, () => api.getEvent(acme.campaigns.liveApiEntry, "evt_missing", getKey)),
    );
    expect(reads.filter((r) => r.status === 404)).toHaveLength(60);
    expectProblem(reads.find((r) => r.status === 429)!, 429, "rate-limited");

    const postKey = takeKey("acme", "full");
    const posts = await Promise.all(
      Array.from({ length: 61 }, () => api.postEvent(acme.campaigns.liveApiEntry, {}, postKey)),
    );
    expect(posts.filter((r) => r.status === 422)).toHaveLength(60);
    expectProblem(posts.find((r) => r.status === 429)!, 429, "rate-limited");
  });
});
