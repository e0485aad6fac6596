import fc from "fast-check";

/**
 * Hostile inputs: strings with NUL, lone surrogates, control and right-to-left characters, very
 * long values, values that look like ids, dates and injections; JSON of the wrong types, deep,
 * wide, with duplicate members; odd methods, media types and headers.
 */

const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\u202e\u0645",
  "\uffff",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "0",
  "-1",
  "1e309",
  "NaN",
  "null",
  "true",
  "[]",
  "{}",
  "%00",
  "%ZZ",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell probe, sent as written.
  "${jndi:ldap://x}",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+14:00",
  "9999-12-31T23:59:59-14:00",
  "275760-09-13T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "2026-11-01T10:00:00",
  "2026-11-01T10:00:00Z",
  "1969-12-31T23:59:59Z",
  "cmp_00000000000000000000000000000000",
  "evt_00000000000000000000000000000000",
  "ctc_00000000000000000000000000000000",
  "ws_00000000000000000000000000000000",
  "card_00000000000000000000000000000000",
  "https://evil.example/cb",
  "javascript:alert(1)",
  "http://localhost:1/cb",
];

/** A string that a hostile client would send: special values, arbitrary Unicode (lone surrogates included), or very long. */
export function hostileString(extra: string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS, ...extra) },
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.string({ maxLength: 10 }),
          fc.constantFrom("\u0000", "\ud800", "\udc00", "\u0007", "\n", "\r\n"),
          fc.string({ maxLength: 10 }),
        )
        .map((p) => p.join("")),
    },
    // Long values: a few kilobytes, not shrunk character by character.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(300, 5_000, 30_000)
        .chain((n) => fc.constantFrom("a", "\u0000", "é", "😀").map((c) => c.repeat(n))),
    },
  );
}

const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  0.5,
  1,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 64,
  1e-320,
  0.1 + 0.2,
];

/** A JSON value of any type, nesting a little, built from hostile strings and numbers. */
export function hostileJson(extraStrings: string[] = []): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    hostileString(extraStrings),
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
    array: fc.array(tie("value"), { maxLength: 4 }),
    object: fc.dictionary(hostileString(extraStrings), tie("value"), { maxKeys: 4 }),
  }));
  return value;
}

/**
 * A JSON object with the members an endpoint takes (each a hostile value, a plausible value, or
 * absent), sometimes extra members.
 */
export function hostileObject(
  fields: Record<string, fc.Arbitrary<unknown>>,
  extraStrings: string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  const members = Object.entries(fields).map(([name, plausible]) =>
    fc
      .option(fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 2, arbitrary: hostileJson(extraStrings) }), {
        nil: undefined,
        freq: 4,
      })
      .map((v) => [name, v] as const),
  );
  return fc
    .tuple(
      fc.tuple(...members),
      fc.option(fc.dictionary(hostileString(), hostileJson(), { maxKeys: 2 }), { nil: undefined, freq: 3 }),
    )
    .map(([pairs, extra]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of pairs) if (v !== undefined) out[k] = v;
      return extra ? { ...extra, ...out } : out;
    });
}

/** Bytes of a request body: JSON of a value, or something that merely looks like JSON. */
export function hostileBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    { weight: 6, arbitrary: value.map((v) => JSON.stringify(v) ?? "null") },
    { weight: 1, arbitrary: value.map((v) => `\ufeff${JSON.stringify(v)}`) },
    // Duplicate members: the last one wins in JSON.parse; the first is what a naive check reads.
    {
      weight: 1,
      arbitrary: fc
        .tuple(hostileString(), hostileJson(), hostileJson())
        .map(([k, a, b]) => `{${JSON.stringify(k)}:${JSON.stringify(a)},${JSON.stringify(k)}:${JSON.stringify(b)}}`),
    },
    { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`) },
    { weight: 1, arbitrary: fc.nat({ max: 5_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`) },
    { weight: 1, arbitrary: value.map((v) => (JSON.stringify(v) ?? "").slice(0, -1)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: fc.nat({ max: 40 }).map((kb) => `{"pad":"${"x".repeat(kb * 1024)}"}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "null",
        "[]",
        "1",
        '"a"',
        "{",
        "}",
        "\u0000",
        '{"a":"\\u0000"}',
        '{"a":"\\ud800"}',
      ),
    },
  );
}

export const CONTENT_TYPES = [
  "application/json",
  "APPLICATION/JSON",
  "application/json; charset=utf-8",
  "Application/Json;Charset=UTF-8",
  "application/json; charset=utf-16",
  "application/jsonx",
  "application/problem+json",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "*/*",
  "",
  ";",
  "application/json;;;",
];

/** A Content-Type header, or none. */
export const contentType = fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 8 });

export const METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "HEAD",
  "TRACE",
  "PROPFIND",
  "MKCOL",
  "LOCK",
  "PURGE",
];

/** Header text a client can send (HTTP forbids control characters; anything else goes). */
export const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.constantFrom(
    "",
    " ",
    "Bearer",
    "Bearer ",
    "Bearer x y",
    "bearer dmk_",
    "Basic Zm9vOmJhcg==",
    "x".repeat(6000),
    "é".repeat(10),
  ),
);

/** Optional odd headers a request may carry. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      "X-Forwarded-For": fc.oneof(
        headerText,
        fc.constant(Array.from({ length: 200 }, (_, i) => `10.0.${i}.1`).join(", ")),
      ),
      Accept: fc.constantFrom(
        "*/*",
        "application/json",
        "text/html",
        "application/json, text/event-stream",
        "",
        "image/png",
      ),
      Origin: fc.constantFrom("https://evil.example", "null", "http://localhost:1"),
      "X-Dm-Client-Address": fc.constantFrom("203.0.113.9", "::1", "garbage"),
      "Accept-Encoding": fc.constantFrom("gzip", "br", "identity", "*"),
    },
    { requiredKeys: [] },
  )
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

/** A query string from hostile names and values, repeated names included. */
export function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const name = names.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostileString() })
    : hostileString();
  const value = fc.oneof(
    fc.constantFrom(
      "0",
      "0.07",
      "0.2",
      "1",
      "-1",
      "1e309",
      "NaN",
      "Infinity",
      "0x10",
      " 1",
      "",
      "1,000",
      "5000",
      "999999999999999999999",
    ),
    hostileString(),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 6 }).map((pairs) => {
    const params = new URLSearchParams();
    for (const [k, v] of pairs) params.append(k, v.isWellFormed() ? v : v.replace(/[\ud800-\udfff]/g, "\ufffd"));
    return params.toString();
  });
}

/** A path segment: a real id, a hostile string, or encoded bytes (%00, %ZZ). */
export function pathSegment(real: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...real, "x") },
    {
      weight: 3,
      arbitrary: hostileString().map((s) =>
        encodeURIComponent(s.isWellFormed() ? s : s.replace(/[\ud800-\udfff]/g, "x")),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("%00", "%ZZ", "%", "..", ".", "%2F", "%2e%2e", "a%00b", "%C0%AF", "%ED%A0%80"),
    },
  );
}

/** Header values must be valid HTTP (no control characters, no non-Latin-1 beyond what Node sends): others are dropped. */
export function validHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && /^[\t\x20-\x7e\x80-\xff]*$/.test(v)) out[k] = v;
  return out;
}
