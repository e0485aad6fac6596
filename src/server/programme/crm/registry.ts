import type { CrmConnection } from "@/generated/prisma/client";
import type { CrmAdapter } from "./adapter";
import { open, seal } from "@/server/ground/platform/secret-box";

/** What is kept, encrypted, per kind of CRM. */
export type TCredentials =
  | { kind: "hubspot"; accessToken: string }
  | { kind: "salesforce"; clientId: string; clientSecret: string };

/**
 * The adapter for a kind of CRM with its credentials (the Salesforce origin already checked); `leads`: Salesforce Leads too.
 * Each CRM's client package (jsforce, @hubspot/api-client: 15 to 35 MB each) is loaded on first use,
 * so a process that never talks to a CRM (a worker that imports, the scheduler with nothing due) never holds it.
 */
export async function adapterFor(
  credentials: TCredentials,
  instanceUrl: string | null,
  o: { leads?: boolean } = {},
): Promise<CrmAdapter> {
  if (credentials.kind === "hubspot")
    return (await import("./hubspot")).hubspotAdapter({ accessToken: credentials.accessToken });
  return (await import("./salesforce")).salesforceAdapter({
    origin: instanceUrl!,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    leads: o.leads === true,
  });
}

export const sealCredentials = (credentials: TCredentials, connectionId: string) => seal(credentials, connectionId);

/** A connection's credentials, decrypted; `resealed` is set when they were under an older key. */
export function openCredentials(connection: Pick<CrmConnection, "id" | "credentials">): {
  credentials: TCredentials;
  resealed: string | null;
} {
  const { value, stale } = open<TCredentials>(connection.credentials!, connection.id);
  return { credentials: value, resealed: stale ? seal(value, connection.id) : null };
}
