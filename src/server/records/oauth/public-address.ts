import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Address ranges a fetch on a client's behalf must never reach: loopback, private, link-local, reserved. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1 or ::ffff:7f00:1), as IPv4; otherwise null. */
function mappedIPv4(address: string): string | null {
  const m = /^(?:0*:)*:?ffff:(.+)$/i.exec(address) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (!m) return null;
  const rest = m[1];
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "");
  const v4 = isIP(plain) === 6 ? mappedIPv4(plain) : null;
  if (v4) return blocked.check(v4, "ipv4");
  const kind = isIP(plain);
  if (kind === 4) return blocked.check(plain, "ipv4");
  if (kind === 6) return blocked.check(plain, "ipv6");
  return true;
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
