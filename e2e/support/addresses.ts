import { randomBytes } from "node:crypto";

/**
 * A client address of its own (IPv6 documentation range), sent as X-Forwarded-For: the server
 * under test trusts this machine as its proxy (TRUST_PROXY in e2e/support/serve.ts), so requests
 * with it count against their own per-address limits and never share a window with other tests.
 */
export function uniqueAddress(): string {
  const h = () => randomBytes(2).toString("hex");
  return `2001:db8:${h()}:${h()}:${h()}:${h()}:${h()}:${h()}`;
}

export const fromAddress = (address: string) => ({ "X-Forwarded-For": address });
