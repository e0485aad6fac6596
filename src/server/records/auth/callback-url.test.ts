import { describe, expect, it } from "vitest";
import { authOptions } from "./options";
import { safeCallback, sameSitePath } from "./callback-url";

/** `/sign-in?callbackUrl=/%5Cevil.example/phish` sent a signed-in person to `/\evil.example/phish`, which browsers read as another site. */
describe("where sign-in may send a person", () => {
  const elsewhere = [
    "/\\evil.example/phish",
    "\\\\evil.example",
    "//evil.example",
    "///evil.example",
    "/%5Cevil.example/phish",
    "/%2F%2Fevil.example",
    "/%2Fevil.example",
    "/%5C%5Cevil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%09/evil.example",
    "/%0d%0aSet-Cookie:x",
    "/%E0%A4%A",
    "",
    "/".repeat(3000),
  ];
  it("refuses backslashes, //, their encoded forms, schemes, control characters and undecodable text", () => {
    for (const url of elsewhere) {
      expect(sameSitePath(url), JSON.stringify(url)).toBeNull();
      expect(safeCallback(url)).toBe("/w");
    }
    expect(safeCallback(undefined)).toBe("/w");
  });

  it("keeps this site's paths, with their queries and fragments", () => {
    for (const url of [
      "/w",
      "/w/ws_1/campaigns?status=live",
      "/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fclient.example%2Fcb",
      "/w/ws_1/confirmations#card-abc",
      "/w/ws_1/contacts?search=a%20b",
    ])
      expect(safeCallback(url)).toBe(url);
  });

  it("next-auth's redirect callback sends other sites and bent paths to the workspaces", async () => {
    const redirect = authOptions.callbacks!.redirect!;
    const baseUrl = "http://localhost:3000";
    expect(await redirect({ url: "/\\evil.example/phish", baseUrl })).toBe("http://localhost:3000/w");
    expect(await redirect({ url: "https://evil.example/x", baseUrl })).toBe("http://localhost:3000/w");
    expect(await redirect({ url: "http://localhost:3000//evil.example", baseUrl })).toBe("http://localhost:3000/w");
    expect(await redirect({ url: "http://localhost:3000/w/ws_1?x=1", baseUrl })).toBe(
      "http://localhost:3000/w/ws_1?x=1",
    );
    expect(await redirect({ url: "/sign-in", baseUrl })).toBe("http://localhost:3000/sign-in");
  });
});
