import { expect, test } from "@playwright/test";

test.describe("/openapi.json", () => {
  test("is served as JSON and describes the three endpoints truthfully", async ({ request }) => {
    const response = await request.get("/openapi.json");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    const post = doc.paths["/v1/campaigns/{campaignId}/events"].post;
    const get = doc.paths["/v1/campaigns/{campaignId}/events/{eventId}"].get;
    const conv = doc.paths["/v1/conversions"].post;
    expect(Object.keys(post.responses).sort()).toEqual(
      ["202", "400", "401", "403", "404", "409", "413", "415", "422", "429", "default"].sort(),
    );
    expect(Object.keys(get.responses).sort()).toEqual(["200", "401", "403", "404", "429", "default"].sort());
    expect(Object.keys(conv.responses).sort()).toEqual(
      ["202", "400", "401", "403", "404", "409", "413", "415", "422", "429", "default"].sort(),
    );
    expect(post.security).toEqual([{ apiKey: ["post_entry_events"] }]);
    expect(conv.security).toEqual([{ apiKey: ["post_conversions"] }]);
    expect(post.responses["409"].content["application/problem+json"].schema).toEqual({
      $ref: "#/components/schemas/Problem",
    });
    expect(Object.keys(post.responses["202"].headers)).toEqual(
      expect.arrayContaining([
        "RateLimit-Policy",
        "RateLimit",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "Location",
      ]),
    );
    expect(post.responses["429"].headers["Retry-After"]).toBeDefined();
    expect(get.responses["200"].content["application/json"].schema.properties.status.enum).toContain("held_out");
    expect(get.responses["200"].content["application/json"].schema.properties.skipReason.enum).toContain(
      "budget_exhausted",
    );
  });

  test("every problem type it names is a page for people", async ({ request }) => {
    const doc = await (await request.get("/openapi.json")).json();
    const types = new Set<string>();
    JSON.stringify(doc, (_k, v) => {
      if (typeof v === "string") for (const m of v.matchAll(/https?:\/\/[^\s`"]+\/problems\/[a-z-]+/g)) types.add(m[0]);
      return v;
    });
    expect(types.size).toBeGreaterThanOrEqual(14);
    for (const type of types) {
      const page = await request.get(new URL(type).pathname);
      expect(page.status(), type).toBe(200);
      expect(await page.text()).toContain("<h1");
    }
  });
});
