import { describe, expect, it } from "vitest";
import { refuseAuthRequest } from "./nextauth-guard";

const base = "http://localhost:3000/api/auth/";
const ask = (method: string, path: string, headers: Record<string, string> = {}) => {
  const segments = new URL(path, base).pathname
    .replace(/^\/api\/auth\/?/, "")
    .split("/")
    .filter(Boolean);
  return refuseAuthRequest(new Request(new URL(path, base), { method, headers }), segments);
};
const problem = async (r: Response | null) => (r ? { status: r.status, ...(await r.json()) } : null);

describe("next-auth's route answers 4xx for what it cannot serve", () => {
  it("refuses a GET of the credentials callback with 405 and Allow: POST", async () => {
    const r = ask("GET", "callback/credentials");
    expect(r?.headers.get("allow")).toBe("POST");
    expect(r?.headers.get("content-type")).toBe("application/problem+json");
    expect(await problem(r)).toMatchObject({ status: 405, detail: "This sign-in address answers POST only." });
  });

  it("answers 404 for unknown actions and providers, and 400 for a callback URL next-auth would fail on", async () => {
    for (const path of ["nope", "callback/github", "callback", "session/extra", "csrf/x", "signin/credentials/x"])
      expect((await problem(ask("GET", path)))?.status, path).toBe(404);
    expect(await problem(ask("GET", "session?callbackUrl=javascript:alert(1)"))).toMatchObject({
      status: 400,
      errors: [{ parameter: "callbackUrl" }],
    });
    const cookie = ask("GET", "session", { cookie: "next-auth.callback-url=data%3Atext" });
    expect(cookie?.status).toBe(400);
    expect(cookie?.headers.get("set-cookie")).toContain("next-auth.callback-url=; Path=/; Max-Age=0");
  });

  it("lets next-auth answer what it serves", () => {
    for (const [method, path] of [
      ["GET", "csrf"],
      ["GET", "session"],
      ["GET", "providers"],
      ["GET", "signin"],
      ["GET", "error?error=CredentialsSignin"],
      ["POST", "callback/credentials"],
      ["POST", "signout"],
      ["POST", "_log"],
      ["GET", "session?callbackUrl=%2Fcampaigns"],
      ["GET", "session?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fw"],
    ])
      expect(ask(method, path), `${method} ${path}`).toBeNull();
  });
});
