import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Global unicast IPv6 (2000::/3): nothing outside it is reachable on the public internet. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Whether a fetch on a client's behalf must never reach this address: anything ipaddr.js does not
 * class as plain unicast (loopback, private, link-local, carrier-grade NAT, reserved, multicast,
 * and the IPv6 forms that carry an IPv4 address or lead to one: NAT64 64:ff9b::/96 and
 * 64:ff9b:1::/48, 6to4, Teredo, ::ffff:0:0:0/96, site-local fec0::/10), IPv6 outside 2000::/3
 * (the IPv4-compatible ::a.b.c.d among them), and any text that is not an address. An IPv4 address
 * written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address.
 */
export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "");
  if (!isIP(plain) || !ipaddr.isValid(plain)) return true;
  let parsed = ipaddr.parse(plain);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== "unicast") return true;
  return parsed.kind() === "ipv6" && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/**
 * True when a hostname names only public addresses. Names are resolved (every address must be
 * public), so a DNS name pointing inside the network is refused too.
 */
export async function isPublicHost(
  hostname: string,
  resolve: (host: string) => Promise<string[]> = defaultResolve,
): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local"))
    return false;
  if (isIP(host)) return !isPrivateAddress(host);
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 && addresses.every((a) => !isPrivateAddress(a));
  } catch {
    return false;
  }
}

async function defaultResolve(host: string) {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/** A name that resolved to an address a fetch must not reach: the connection was never made. */
export class RefusedAddress extends Error {}

/** Every address of a name, as dns.lookup with `all: true` gives them. */
export type TResolveAll = (
  hostname: string,
  options: object,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

type LookupCallback = (error: Error | null, address?: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for http(s).request that refuses a name resolving to any address `allowed` refuses,
 * so the socket connects only to an address that was checked: a name that is public when checked
 * and points inside the network a moment later (DNS rebinding) reaches nothing.
 */
export function pinnedLookup(
  allowed: (address: string) => boolean = (a) => !isPrivateAddress(a),
  resolve: TResolveAll = (hostname, options, callback) => dnsLookup(hostname, { ...options, all: true }, callback),
) {
  return (hostname: string, options: object, callback: LookupCallback) => {
    resolve(hostname, options, (error, addresses) => {
      if (error) return callback(error);
      const refused = addresses.find((a) => !allowed(a.address));
      if (refused || addresses.length === 0)
        return callback(
          new RefusedAddress(
            `${hostname} resolves to ${refused?.address ?? "no address"}, which is not a public address.`,
          ),
        );
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
