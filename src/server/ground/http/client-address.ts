import { BlockList, isIP } from "node:net";
import { ConfigError } from "../platform/config";

/**
 * The client's address, for the limits counted per address (calculators, OAuth registration and
 * tokens, unauthenticated REST calls, sign-in, sign-up). It is the connection's address, unless
 * TRUST_PROXY says which proxies in front of the service may report the client's address in
 * X-Forwarded-For:
 *
 * - unset, empty, `off`, `false` or `0`: no proxy is trusted (the default); X-Forwarded-For is ignored.
 * - a hop count `N` (1, 2, ...): N proxies stand in front; the address N hops back is the client's.
 * - a list of addresses or CIDR ranges (`10.0.0.0/8, 127.0.0.1, ::1`): a hop whose address is in
 *   the list is a proxy; the first address from the right that is not is the client's.
 *
 * The production server (scripts/serve.ts) resolves it from the socket once per request and hands
 * it to the handlers in CLIENT_ADDRESS_HEADER, which it always overwrites, so a client cannot set it.
 * This module is imported by that server directly as well as by the handlers: relative imports only.
 */

export type TrustProxy =
  | { kind: "off" }
  | { kind: "hops"; hops: number }
  | { kind: "list"; list: BlockList; text: string };

/** The request header that carries the resolved address from the server to the handlers. */
export const CLIENT_ADDRESS_HEADER = "x-dm-client-address";

/** How much of X-Forwarded-For is read, from its right end. */
const MAX_FORWARDED_CHARS = 1024;

/** What handlers count on when the server did not resolve an address (`next dev`): one shared bucket. */
const UNKNOWN = "unknown";

export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? "").trim();
  if (["", "off", "false", "0"].includes(text.toLowerCase())) return { kind: "off" };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 0 && hops <= 32) return { kind: "hops", hops };
  }
  const list = new BlockList();
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!family || extra !== undefined || !(bits >= 0 && bits <= (family === 6 ? 128 : 32))) {
      throw new ConfigError(
        `TRUST_PROXY must be off, a number of proxies in front of the service (1 to 32), or a comma-separated list of proxy addresses or CIDR ranges such as 10.0.0.0/8 (got "${text.slice(0, 80)}").`,
      );
    }
    list.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
  }
  return { kind: "list", list, text };
}

/** An IP address as written in X-Forwarded-For (maybe with a port, or in brackets), normalised; null if it is none. */
function normalise(raw: string | undefined): string | null {
  if (!raw) return null;
  let value = raw.trim();
  if (value.length > 64) return null;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped) value = mapped[1];
  return isIP(value) ? value.toLowerCase() : null;
}

const trusted = (trust: Extract<TrustProxy, { kind: "list" }>, address: string) =>
  trust.list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");

/** The client's address for a connection from `socketAddress` that carried `forwardedFor`. */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trust: TrustProxy,
): string {
  const peer = normalise(socketAddress);
  if (!peer) return UNKNOWN;
  if (trust.kind === "off" || !forwardedFor) return peer;
  // The chain as the last hop sees it: the forwarded addresses, then the connection itself. Proxies
  // append on the right, so only the right end is read (a few kilobytes of header are never split).
  const tail =
    forwardedFor.length > MAX_FORWARDED_CHARS
      ? forwardedFor.slice(-MAX_FORWARDED_CHARS).split(",").slice(1)
      : forwardedFor.split(",");
  const chain = [...tail.map((a) => a.trim()), peer];
  let index = chain.length - 1;
  if (trust.kind === "hops") {
    index = Math.max(0, chain.length - 1 - trust.hops);
  } else {
    for (let address = peer; index > 0 && address && trusted(trust, address); address = normalise(chain[index]) ?? "")
      index--;
  }
  // What a trusted hop reported must be an address; if it is not, the hop itself is the client.
  for (let i = index; i < chain.length; i++) {
    const address = normalise(chain[i]);
    if (address) return address;
  }
  return peer;
}

/**
 * The header is believed only when it comes with this process's front-door seal: under `next dev`
 * or `next start` nothing overwrites it, so a client could otherwise choose its own address. The
 * seal lives on globalThis because the server and Next's bundle each load their own copy of this module.
 */
export const CLIENT_ADDRESS_SEAL_HEADER = "x-dm-client-address-seal";
const SEAL_KEY = Symbol.for("direct-mail-programme.client-address-seal");

/** The seal the front door puts beside the address it resolved (made once per process). */
export function clientAddressSeal(): string {
  const g = globalThis as { [SEAL_KEY]?: string };
  g[SEAL_KEY] ??=
    `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  return g[SEAL_KEY];
}

/** The headers the front door sets for a request from `address`: the address and this process's seal. */
export function resolvedAddressHeaders(address: string): Record<string, string> {
  return { [CLIENT_ADDRESS_HEADER]: address, [CLIENT_ADDRESS_SEAL_HEADER]: clientAddressSeal() };
}

/** The address the server resolved for this request (see module comment); "unknown" when there is none. */
export function clientAddress(headers: Headers | Record<string, string | string[] | undefined>): string {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return Array.isArray(value) ? value[0] : (value ?? undefined);
  };
  const seal = (globalThis as { [SEAL_KEY]?: string })[SEAL_KEY];
  if (!seal || read(CLIENT_ADDRESS_SEAL_HEADER) !== seal) return UNKNOWN;
  return normalise(read(CLIENT_ADDRESS_HEADER)) ?? UNKNOWN;
}
