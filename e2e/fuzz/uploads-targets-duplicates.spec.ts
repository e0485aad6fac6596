import net from "node:net";
import { deflateSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { E2E_BASE_URL } from "../support/env";
import { METHODS } from "./arbitraries";
import {
  asClient,
  check,
  describeRequest,
  expectHealthy,
  expectNoInternalText,
  expectNoServerError,
  fuzzWorkspace,
  type Reply,
  type Sent,
  send,
} from "./harness";

/**
 * What the third outside test found, as properties: logo uploads that name files or
 * declare huge images, raw request targets such as `*`, owner pages with malformed ids, and the
 * same name created several times at once. Every answer is under 500.
 */

test.describe.configure({ mode: "serial", timeout: 300_000 });

async function ownerSession(): Promise<string> {
  const fz = fuzzWorkspace();
  const from = asClient({}, 0xfffd);
  const csrf = await send({ method: "GET", path: "/api/auth/csrf", headers: from });
  const cookies = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
  const res = await send({
    method: "POST",
    path: "/api/auth/callback/credentials",
    headers: { ...from, Cookie: cookies.join("; "), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      csrfToken: (csrf.json as { csrfToken: string }).csrfToken,
      email: fz.owner.email,
      password: fz.owner.password,
      json: "true",
    }).toString(),
  });
  const session = (res.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .find((c) => c.includes("session-token"));
  expect(session, res.text).toBeTruthy();
  return session!;
}

const mutation = (cookie: string, procedure: string, input: unknown, client = 0): Sent => ({
  method: "POST",
  path: `/api/trpc/${procedure}`,
  headers: asClient({ Cookie: cookie, "Content-Type": "application/json" }, client),
  body: JSON.stringify({ json: input }),
});

const errorMessage = (reply: Reply) =>
  (reply.json as { error?: { json?: { message?: string } } })?.error?.json?.message ?? "";

/** A PNG whose header declares width × height, with little or no pixel data behind it. */
function pngDeclaring(width: number, height: number, idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, "latin1"), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const REFERENCES = [
  "public/favicon.svg",
  "./public/favicon.svg",
  "../package.json",
  "/etc/passwd",
  "/proc/self/environ",
  "file:///etc/hostname",
  "FILE:public/favicon.svg",
  "http://127.0.0.1:5432/",
  "https://evil.example/x.png",
  "//evil.example/x.svg",
  "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxpbWFnZSBocmVmPSIvZXRjL3Bhc3N3ZCIvPjwvc3ZnPg==",
  "#local",
  " public/favicon.svg",
  "pub&#108;ic/favicon.svg",
];
const WRAPPERS = [
  (r: string) => `<image href="${r}" width="50" height="50"/>`,
  (r: string) => `<image xlink:href="${r}" width="50" height="50"/>`,
  (r: string) => `<use href="${r}#a"/>`,
  (r: string) => `<rect width="9" height="9" fill="url(${r})"/>`,
  (r: string) => `<rect width="9" height="9" style="fill:url('${r}')"/>`,
  (r: string) => `<style>@import url("${r}");</style>`,
  (r: string) => `<feImage href="${r}"/>`,
  (r: string) => `<foreignObject><img src="${r}"/></foreignObject>`,
  (r: string) => `<script href="${r}"/>`,
  (r: string) => `<a href="${r}"><circle r="4"/></a>`,
  (r: string) => `<pattern id="p" href="${r}"/>`,
];

test("logo uploads naming files, addresses or huge images: never a 5xx, refusals carry a sentence, a stored logo holds nothing from outside", async () => {
  const fz = fuzzWorkspace();
  const cookie = await ownerSession();
  const svgUpload = fc
    .record({ wrapper: fc.nat(WRAPPERS.length - 1), reference: fc.constantFrom(...REFERENCES), doctype: fc.boolean() })
    .map(({ wrapper, reference, doctype }) => {
      const body = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="80"><rect width="200" height="80" fill="#0b7285"/>${WRAPPERS[wrapper](reference)}</svg>`;
      return {
        kind: "svg" as const,
        dataUrl: `data:image/svg+xml;base64,${Buffer.from(`${doctype ? `<!DOCTYPE svg [<!ENTITY e SYSTEM "${reference}">]>` : ""}${body}`).toString("base64")}`,
      };
    });
  const pngUpload = fc
    .record({
      width: fc.oneof(fc.constantFrom(8000, 5001, 65_535, 2 ** 31 - 1, 0), fc.integer({ min: 1, max: 100_000 })),
      height: fc.oneof(fc.constantFrom(8000, 5000, 1, 0), fc.integer({ min: 1, max: 100_000 })),
      zeros: fc.constantFrom(0, 1000, 1_000_000),
    })
    .map(({ width, height, zeros }) => ({
      kind: "png" as const,
      width,
      height,
      dataUrl: `data:image/png;base64,${pngDeclaring(width, height, deflateSync(Buffer.alloc(zeros))).toString("base64")}`,
    }));
  const upload = fc.record({
    image: fc.oneof(svgUpload, pngUpload),
    field: fc.constantFrom("logo", "signature"),
    client: fc.nat(),
  });
  await check("logo and signature uploads", upload, 60, async ({ image, field, client }) => {
    const req = mutation(cookie, "brand.update", { workspaceId: fz.id, [field]: image.dataUrl }, client);
    const started = Date.now();
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    if (image.kind === "png") {
      // Every one of these declares more pixels than it holds, or more than 25 megapixels: refused quickly, from the header or by zlib.
      expect(reply.status, describeRequest(req)).toBe(422);
      expect(errorMessage(reply)).toMatch(/^The (logo|signature) /);
      if (image.width * image.height > 25_000_000)
        expect(errorMessage(reply)).toMatch(/at most (25 megapixels|8000 pixels a side)/);
      expect(Date.now() - started, "refused without decoding").toBeLessThan(15_000);
      return;
    }
    if (reply.status !== 200) {
      expect(reply.status, describeRequest(req)).toBe(422);
      expect(errorMessage(reply)).toMatch(/^The (logo|signature) (could not be read as an SVG drawing|draws nothing)/);
      return;
    }
    const shown = await send({
      method: "GET",
      path: `/api/brand/${field}?workspaceId=${fz.id}`,
      headers: { Cookie: cookie },
    });
    expect(shown.status, describeRequest(req)).toBe(200);
    expect(shown.headers["content-type"]).toBe("image/png");
  });
  // The fuzz workspace keeps a plain logo and no signature afterwards.
  const plain = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" rx="12" fill="#0b7285"/></svg>`;
  expect(
    (
      await send(
        mutation(cookie, "brand.update", {
          workspaceId: fz.id,
          logo: `data:image/svg+xml;base64,${Buffer.from(plain).toString("base64")}`,
          signature: null,
        }),
      )
    ).status,
  ).toBe(200);
  await expectHealthy();
});

/**
 * Writes a request line as it is and reads the status of the answer. The socket stays open for the
 * answer (`Connection: close` has the server close it): a client that half-closes after its request
 * gets no answer from Node's HTTP server to a route that answers asynchronously, since the server
 * aborts a request whose client has ended (`httpAllowHalfOpen` is off), as browsers never do.
 */
function rawRequest(requestLine: string): Promise<number> {
  const url = new URL(E2E_BASE_URL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () =>
      socket.write(`${requestLine}\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.setTimeout(30_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(requestLine)}`)));
    socket.on("close", () =>
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString("latin1"))?.[1] ?? 0)),
    );
  });
}

test("raw request targets (the asterisk form, no leading slash, absolute and odd forms): never a 5xx", async () => {
  const target = fc.oneof(
    fc.constantFrom(
      "*",
      "**",
      "*/api/health",
      "*?x=1",
      "api/health",
      "w",
      ".",
      "..",
      "%2F",
      "?x",
      "#x",
      "\\",
      "\\api\\health",
      "http://",
      "http://evil.example",
      "http://evil.example/api/health",
      "https://localhost/api/health",
      "HTTP://LOCALHOST/",
      "http:/api/health",
      "//api/health",
      "///",
      "mailto:x@y.example",
      "urn:x",
      "localhost:3000",
      "/api/health",
    ),
    fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\s\u0000-\u001f\u007f]/.test(s)),
  );
  const request = fc.record({ method: fc.constantFrom(...METHODS), target });
  await check("raw request targets", request, 80, async ({ method, target }) => {
    const status = await rawRequest(`${method} ${target} HTTP/1.1`);
    expect(status, `${method} ${target}`).toBeGreaterThan(0);
    expect(status, `${method} ${target}`).toBeLessThan(500);
    if (target.startsWith("*"))
      expect(status, `${method} ${target}`).toBe(METHODS.slice(0, 7).includes(method) ? 400 : 405);
  });
  await expectHealthy();
});

test("owner pages with malformed, over-long and odd ids: never a 5xx, a 404 for an id that cannot be one", async () => {
  const fz = fuzzWorkspace();
  const cookie = await ownerSession();
  const sections = [
    "contacts",
    "audiences",
    "accounts",
    "imports",
    "campaigns",
    "designs",
    "audits",
    "campaigns/:id/edit",
    "campaigns/:id/results",
  ];
  const id = fc.oneof(
    fc.constantFrom(
      "a.b",
      "x".repeat(65),
      "x".repeat(300),
      "%C3%A9",
      "%00",
      "%20",
      "a%2Fb",
      "a%5Cb",
      "..%2F..",
      "__proto__",
      "constructor",
      "-",
      "_",
      "ctc_0000",
      "cmp_00000000000000000000000000000000",
    ),
    fc.string({ minLength: 1, maxLength: 80 }).map((s) => encodeURIComponent(s)),
  );
  const request = fc.record({ section: fc.constantFrom(...sections), id, signedIn: fc.boolean() });
  await check("owner page ids", request, 80, async ({ section, id, signedIn }) => {
    const path = section.includes(":id") ? `/w/${fz.id}/${section.replace(":id", id)}` : `/w/${fz.id}/${section}/${id}`;
    const req: Sent = { method: "GET", path, headers: signedIn ? { Cookie: cookie } : {} };
    const reply = await send(req);
    expectNoServerError(reply, req);
    expectNoInternalText(reply, req);
    let decoded = id;
    try {
      decoded = decodeURIComponent(id);
    } catch {
      /* Next refuses it: 400 */
    }
    // "." and ".." (and slashes) change which page the address names; every other id that cannot be one is a 404 (or 400 when Next cannot decode it).
    if (signedIn && !/^[\w-]{1,64}$/.test(decoded) && !/[/\\]|^\.\.?$/.test(decoded))
      expect([400, 404], describeRequest(req)).toContain(reply.status);
  });
  await expectHealthy();
});

test("the same name created several times at once: one success, the others the 409 a sequential duplicate gets", async () => {
  const fz = fuzzWorkspace();
  const cookie = await ownerSession();
  const created: string[] = [];
  const round = fc.record({
    copies: fc.integer({ min: 2, max: 10 }),
    name: fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((s) => s.trim().length > 0 && !/[\u0000\ud800-\udfff]/.test(s)),
  });
  await check("parallel duplicate creates", round, 12, async ({ copies, name }) => {
    const unique = `${name} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const reqs = Array.from({ length: copies }, (_, i) =>
      mutation(cookie, "audience.create", { workspaceId: fz.id, name: unique }, i),
    );
    const replies = await Promise.all(reqs.map((r) => send(r)));
    replies.forEach((reply, i) => {
      expectNoServerError(reply, reqs[i]);
      expectNoInternalText(reply, reqs[i]);
    });
    const ok = replies.filter((r) => r.status === 200);
    // A name the schema refuses is refused for every copy alike.
    if (!ok.length) {
      expect(new Set(replies.map((r) => r.status)), unique).toEqual(new Set([replies[0].status]));
      return;
    }
    expect(ok.length, unique).toBe(1);
    const id = (ok[0].json as { result: { data: { json: { id: string } } } }).result.data.json.id;
    created.push(id);
    for (const reply of replies.filter((r) => r.status !== 200)) {
      expect(reply.status, unique).toBe(409);
      expect(errorMessage(reply)).toMatch(
        /^There is already an audience named “.*” \(aud_[0-9a-f]+\); choose another name or add contacts to that one\.$/s,
      );
    }
  });
  // Suppressing one address several times at once: every call answers, the address is on the list once.
  const email = `parallel.${Date.now().toString(36)}@suppressed.example`;
  const adds = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      send(mutation(cookie, "suppression.add", { workspaceId: fz.id, entries: [{ email, reason: "opt-out" }] }, i)),
    ),
  );
  for (const reply of adds) expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  expect(
    adds.reduce(
      (sum, r) => sum + (r.json as { result: { data: { json: { added: number } } } }).result.data.json.added,
      0,
    ),
  ).toBe(1);
  for (const audienceId of created)
    expect((await send(mutation(cookie, "audience.delete", { workspaceId: fz.id, audienceId }))).status).toBe(200);
  await expectHealthy();
});
