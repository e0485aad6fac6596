import { expect, test } from "@playwright/test";
import pkg from "../../package.json" with { type: "json" };

test("GET /api/health answers 200 with status, database, version and time", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(response.headers()["cache-control"]).toBe("no-store");
  const body = await response.json();
  expect(body).toEqual({ status: "ok", database: "ok", version: pkg.version, time: expect.any(String) });
  expect(Math.abs(Date.parse(body.time) - Date.now())).toBeLessThan(60_000);
});

test("pages cannot be framed", async ({ request }) => {
  const response = await request.get("/sign-in");
  expect(response.headers()["x-frame-options"]).toBe("DENY");
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});
