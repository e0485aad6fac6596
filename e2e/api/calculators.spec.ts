import { expect, test } from "@playwright/test";
import { getTool } from "../support/api";
import { uniqueAddress } from "../support/addresses";

test.describe("public calculators", () => {
  test("holdout-size answers with the inputs, the defaults and the sizes, cacheable and open to every origin", async ({
    request,
  }) => {
    const res = await getTool(request, "/api/tools/holdout-size?baselineRate=0.07&relativeLift=0.2", {
      Origin: "https://planner.example",
    });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/json");
    expect(res.headers()["access-control-allow-origin"]).toBe("*");
    expect(res.headers()["cache-control"]).toBe("public, max-age=86400");
    expect(res.headers()["ratelimit-policy"]).toBe('"per-ip";q=300;w=60');
    expect(await res.json()).toEqual({
      inputs: { baselineRate: 0.07, relativeLift: 0.2, alpha: 0.05, power: 0.8, holdoutShare: 0.5 },
      treatedRate: expect.closeTo(0.084, 12),
      absoluteLift: expect.closeTo(0.014, 12),
      holdoutSize: 5691,
      treatedSize: 5691,
      totalSize: 11382,
      sided: "two-sided",
      formula: expect.stringContaining("pooled variance under the null"),
    });
  });

  test("each calculator answers", async ({ request }) => {
    const cases: [string, Record<string, unknown>][] = [
      [
        "minimum-detectable-lift?baselineRate=0.05&audienceSize=10000",
        { detectable: true, relativeLift: expect.closeTo(0.33319, 4), holdoutSize: 2000, treatedSize: 8000 },
      ],
      [
        "break-even?costPerPieceCents=300&dealValueCents=2000000&winRate=0.1&responseRate=0.01",
        {
          breakEvenResponseRate: expect.closeTo(0.0015, 10),
          expected: { valuePerPieceCents: 2000, roi: expect.closeTo(5.6667, 3), profitPer1000PiecesCents: 1_700_000 },
        },
      ],
      [
        "test-duration?baselineRate=0.07&relativeLift=0.2&weeklyVolume=1000",
        { totalSize: 18128, weeksToEnroll: 19, totalDays: 163 },
      ],
    ];
    for (const [path, expected] of cases) {
      const res = await getTool(request, `/api/tools/${path}`);
      expect(res.status(), path).toBe(200);
      expect(await res.json(), path).toMatchObject(expected);
    }
  });

  test("answers the CORS preflight", async ({ request }) => {
    const res = await request.fetch("/api/tools/holdout-size", {
      method: "OPTIONS",
      headers: {
        Origin: "https://planner.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(res.status()).toBe(204);
    expect(res.headers()["access-control-allow-origin"]).toBe("*");
    expect(res.headers()["access-control-allow-methods"]).toContain("GET");
    expect(res.headers()["access-control-allow-headers"]).toContain("Content-Type");
  });

  test("bad parameters give a 400 problem naming each one with its bound", async ({ request }) => {
    const res = await getTool(
      request,
      "/api/tools/holdout-size?baselineRate=1.5&relativeLift=abc&alpha=0.5&colour=red",
    );
    expect(res.status()).toBe(400);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
    expect(res.headers()["access-control-allow-origin"]).toBe("*");
    const body = await res.json();
    expect(body).toMatchObject({
      status: 400,
      title: "Some query parameters are not valid",
      type: expect.stringMatching(/\/problems\/invalid-parameters$/),
    });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        {
          parameter: "baselineRate",
          detail: "baselineRate must be at most 0.9 (conversion rate of the holdout arm, as a fraction: 7% is 0.07).",
        },
        {
          parameter: "relativeLift",
          detail:
            "relativeLift must be a number from 0.01 to 10 (lift of the treated arm over the baseline, as a fraction: +20% is 0.2).",
        },
        { parameter: "alpha", detail: "alpha must be at most 0.2 (two-sided significance level)." },
        { parameter: "colour", detail: expect.stringContaining("colour is not a field of this request") },
      ]),
    );
    const missing = await (await getTool(request, "/api/tools/break-even")).json();
    expect(missing.errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual([
      "costPerPieceCents",
      "dealValueCents",
      "winRate",
    ]);
    for (const [path, required] of [
      ["minimum-detectable-lift", ["audienceSize", "baselineRate"]],
      ["test-duration", ["baselineRate", "relativeLift", "weeklyVolume"]],
    ] as const) {
      const res = await getTool(request, `/api/tools/${path}`);
      expect(res.status(), path).toBe(400);
      expect((await res.json()).errors.map((e: { parameter: string }) => e.parameter).sort(), path).toEqual(required);
    }
    expect((await getTool(request, "/api/tools/no-such-tool")).status()).toBe(404);
    expect((await request.post("/api/tools/holdout-size")).status()).toBe(405);
  });

  test("a generous per-address limit: the 301st request in a minute gets 429 with Retry-After", async ({ request }) => {
    const address = uniqueAddress();
    const seconds = new Date().getUTCSeconds();
    if (seconds > 45) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    const statuses: number[] = [];
    for (let batch = 0; batch < 7; batch++) {
      const results = await Promise.all(
        Array.from({ length: 43 }, () =>
          getTool(request, "/api/tools/holdout-size?baselineRate=0.07&relativeLift=0.2", {
            "X-Forwarded-For": address,
          }),
        ),
      );
      statuses.push(...results.map((r) => r.status()));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const over = await getTool(request, "/api/tools/holdout-size?baselineRate=0.07&relativeLift=0.2", {
      "X-Forwarded-For": address,
    });
    expect(over.status()).toBe(429);
    expect(Number(over.headers()["retry-after"])).toBeGreaterThan(0);
    expect((await over.json()).type).toMatch(/\/problems\/rate-limited$/);
    // The limit is per address across every calculator.
    for (const path of [
      "minimum-detectable-lift?baselineRate=0.05&audienceSize=10000",
      "break-even?costPerPieceCents=300&dealValueCents=2000000&winRate=0.1",
      "test-duration?baselineRate=0.07&relativeLift=0.2&weeklyVolume=1000",
    ]) {
      expect((await getTool(request, `/api/tools/${path}`, { "X-Forwarded-For": address })).status(), path).toBe(429);
    }
  });
});
