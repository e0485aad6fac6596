import { describe, expect, it } from "vitest";
import { ConfigError } from "@/server/ground/platform/config";
import {
  CLIENT_ADDRESS_HEADER,
  CLIENT_ADDRESS_SEAL_HEADER,
  clientAddress,
  parseTrustProxy,
  resolveClientAddress,
  resolvedAddressHeaders,
} from "./client-address";

describe("TRUST_PROXY and the client's address", () => {
  it("off by default: the connection's address counts, whatever X-Forwarded-For says", () => {
    const off = parseTrustProxy(undefined);
    expect(resolveClientAddress("203.0.113.7", "198.51.100.1", off)).toBe("203.0.113.7");
    expect(resolveClientAddress("::ffff:203.0.113.7", "1.2.3.4, 5.6.7.8", off)).toBe("203.0.113.7");
    expect(resolveClientAddress("203.0.113.7", "x".repeat(10_000), off)).toBe("203.0.113.7");
    for (const value of ["", "off", "false", "0"]) expect(parseTrustProxy(value)).toEqual(off);
  });

  it("a hop count trusts that many proxies in front: the address they saw is the client's; what the client wrote further left is ignored", () => {
    const one = parseTrustProxy("1");
    // client -> proxy (appends the client's address) -> service
    expect(resolveClientAddress("10.0.0.2", "203.0.113.7", one)).toBe("203.0.113.7");
    expect(resolveClientAddress("10.0.0.2", "6.6.6.6, 203.0.113.7", one)).toBe("203.0.113.7");
    const two = parseTrustProxy("2");
    expect(resolveClientAddress("10.0.0.3", "6.6.6.6, 203.0.113.7, 10.0.0.2", two)).toBe("203.0.113.7");
    // Fewer addresses than trusted hops: the farthest one there is.
    expect(resolveClientAddress("10.0.0.3", "203.0.113.7", two)).toBe("203.0.113.7");
    // No header at all: the connection.
    expect(resolveClientAddress("10.0.0.2", undefined, one)).toBe("10.0.0.2");
  });

  it("a CIDR list trusts proxies by address: the first address from the right outside the list is the client's", () => {
    const trust = parseTrustProxy("10.0.0.0/8, 127.0.0.1, ::1/128");
    expect(resolveClientAddress("127.0.0.1", "6.6.6.6, 203.0.113.7, 10.1.2.3", trust)).toBe("203.0.113.7");
    expect(resolveClientAddress("::1", "203.0.113.9", trust)).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:10.0.0.5", "2001:db8::1", trust)).toBe("2001:db8::1");
    // An untrusted connection is the client, whatever it forwards.
    expect(resolveClientAddress("203.0.113.50", "6.6.6.6", trust)).toBe("203.0.113.50");
    // Every hop trusted: the leftmost.
    expect(resolveClientAddress("127.0.0.1", "10.0.0.9", trust)).toBe("10.0.0.9");
  });

  it("what a trusted proxy forwards is used only when it is an IP address; otherwise the proxy that sent it counts", () => {
    const one = parseTrustProxy("1");
    expect(resolveClientAddress("10.0.0.2", "not-an-address", one)).toBe("10.0.0.2");
    expect(resolveClientAddress("10.0.0.2", `${"a".repeat(5000)}`, one)).toBe("10.0.0.2");
    expect(resolveClientAddress("10.0.0.2", "203.0.113.7:4711", one)).toBe("203.0.113.7");
    expect(resolveClientAddress("10.0.0.2", "[2001:db8::1]:443", one)).toBe("2001:db8::1");
    expect(resolveClientAddress(undefined, undefined, one)).toBe("unknown");
  });

  it("a setting that is neither a hop count nor a CIDR list stops the server with one sentence", () => {
    expect(() => parseTrustProxy("yes")).toThrow(ConfigError);
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy("-1")).toThrow(/TRUST_PROXY/);
  });

  it("handlers read the address the server resolved, bounded; without it they share one bucket rather than trust the client", () => {
    expect(clientAddress(new Headers({ ...resolvedAddressHeaders("203.0.113.7"), "x-forwarded-for": "1.2.3.4" }))).toBe(
      "203.0.113.7",
    );
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4" }))).toBe("unknown");
    expect(clientAddress(resolvedAddressHeaders("203.0.113.7"))).toBe("203.0.113.7");
    expect(clientAddress(new Headers(resolvedAddressHeaders("z".repeat(500))))).toBe("unknown");
  });

  it("an address header without the front door's seal (a client writing it under next dev or next start) is not believed", () => {
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: "203.0.113.7" })).toBe("unknown");
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: "203.0.113.7", [CLIENT_ADDRESS_SEAL_HEADER]: "guessed" })).toBe(
      "unknown",
    );
  });
});
