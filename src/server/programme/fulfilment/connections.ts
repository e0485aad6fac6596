import { randomUUID } from "node:crypto";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { keyring, open, seal } from "@/server/ground/platform/secret-box";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { ConfigError } from "@/server/ground/platform/config";
import { baseUrl } from "@/server/ground/platform/base-url";
import { notifyVendorConnectionFailed } from "@/server/records/email/notify-events";
import { VendorError } from "./adapter";
import type { Prisma } from "@/generated/prisma/client";
import { CONNECTABLE_VENDORS, isConnectableVendor, type TConnectableVendor } from "./vendors/connector";
import { CONNECTORS, vendorLabel } from "./vendors/connectors";
import { lobApiUrl } from "./vendors/lob-connect";

interface Secrets {
  apiKey: string;
  /** The vendor's webhook signing secret; absent for a vendor that sends no webhooks. */
  webhookSecret?: string | null;
}

export { lobApiUrl };

/** The URL to paste into the vendor's dashboard as the webhook's URL; null for a vendor that sends none. */
export const webhookUrlOf = (vendor: string, connectionId: string) =>
  isConnectableVendor(vendor) && !CONNECTORS[vendor].webhooks
    ? null
    : `${baseUrl()}/api/webhooks/${vendor}/${connectionId}`;

function view(c: {
  id: string;
  vendor: string;
  mode: string;
  status: string;
  keyHint: string;
  connectedByLabel: string;
  connectedAt: Date;
  disconnectedAt: Date | null;
  statusReason: string | null;
  settings: unknown;
}) {
  return {
    connectionId: c.id,
    vendor: c.vendor,
    label: vendorLabel(c.vendor),
    mode: c.mode as "test" | "live",
    status: c.status as "connected" | "disconnected" | "key_revoked",
    keyHint: c.keyHint,
    connectedBy: c.connectedByLabel,
    connectedAt: c.connectedAt,
    disconnectedAt: c.disconnectedAt,
    statusReason: c.statusReason,
    settings: (c.settings ?? {}) as Record<string, string>,
    webhookUrl: webhookUrlOf(c.vendor, c.id),
  };
}

/** The workspace's vendor connections (never their secrets), newest first. */
export async function listVendorConnections(db: Db, p: { workspaceId: string }) {
  const rows = await db.printVendorConnection.findMany({
    where: { workspaceId: p.workspaceId },
    orderBy: { connectedAt: "desc" },
  });
  return rows.map(view);
}

/** Each connectable vendor, what it fulfils, and whether it asks for a webhook signing secret. */
export function connectableVendors() {
  return CONNECTABLE_VENDORS.map((v) => ({
    vendor: v,
    label: CONNECTORS[v].label,
    fulfils: CONNECTORS[v].fulfils,
    webhooks: CONNECTORS[v].webhooks,
  }));
}

/**
 * Connects the workspace's own account at a vendor: checks the key with the vendor at once
 * (vendors/connectors.ts), stores the key and any webhook signing secret encrypted (the CRM secret
 * box, bound to the connection's id), and answers the webhook URL to paste into the vendor's
 * dashboard (null for a vendor that sends no webhooks). A test account prints nothing real.
 */
export async function connectVendor(
  db: Db,
  p: {
    workspaceId: string;
    input: { vendor: TConnectableVendor; apiKey: string; webhookSecret?: string | null };
    actor: Actor;
  },
) {
  const connector = CONNECTORS[p.input.vendor];
  if (!connector) throw new AppError("validation_failed", `There is no print vendor called “${p.input.vendor}”.`);
  const apiKey = p.input.apiKey.trim();
  const webhookSecret = p.input.webhookSecret?.trim() || null;
  try {
    keyring();
  } catch (error) {
    if (error instanceof ConfigError)
      throw new AppError("invalid_state", `Print vendor connections are not set up on this server: ${error.message}`);
    throw error;
  }
  const { mode, settings } = await connector.check({ apiKey, webhookSecret });
  const id = `pvc_${randomUUID().replace(/-/g, "")}`;
  const secrets: Secrets = connector.webhooks ? { apiKey, webhookSecret } : { apiKey };
  const created = await db.printVendorConnection.create({
    data: {
      id,
      workspaceId: p.workspaceId,
      vendor: p.input.vendor,
      mode,
      status: "connected",
      credentials: seal(secrets, id),
      keyHint: apiKey.slice(-4),
      connectedByLabel: p.actor.label,
      settings: (settings ?? {}) as Prisma.InputJsonValue,
    },
  });
  // Contracts whose account at this vendor was disconnected or refused, in the same mode, print through this one now.
  const stale = await db.printVendorConnection.findMany({
    where: { workspaceId: p.workspaceId, vendor: p.input.vendor, mode, status: { not: "connected" } },
    select: { id: true },
  });
  if (stale.length)
    await db.fulfilmentContract.updateMany({
      where: { workspaceId: p.workspaceId, vendor: p.input.vendor, connectionId: { in: stale.map((s) => s.id) } },
      data: { connectionId: id },
    });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "print_vendor.connected",
    { type: "print_vendor_connection", id },
    { vendor: p.input.vendor, mode },
  );
  return {
    connectionId: created.id,
    vendor: p.input.vendor,
    mode,
    webhookUrl: webhookUrlOf(p.input.vendor, created.id),
  };
}

/** Forgets the connection's secrets. Its contracts print nothing more until a new connection replaces it. */
export async function disconnectVendor(db: Db, p: { workspaceId: string; connectionId: string; actor: Actor }) {
  const c = await db.printVendorConnection.findFirst({ where: { id: p.connectionId, workspaceId: p.workspaceId } });
  if (!c) throw new AppError("not_found", "No such print vendor connection in this workspace.");
  if (c.status === "disconnected") throw new AppError("invalid_state", "This print vendor is already disconnected.");
  await db.printVendorConnection.update({
    where: { id: c.id },
    data: { status: "disconnected", credentials: null, disconnectedAt: new Date() },
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "print_vendor.disconnected",
    { type: "print_vendor_connection", id: c.id },
    { vendor: c.vendor, mode: c.mode },
  );
  return { connectionId: c.id };
}

/** The connection's secrets, for printing and webhooks; a VendorError when it can no longer print. */
export async function openConnection(db: Db, connectionId: string): Promise<VendorAccount> {
  const c = await db.printVendorConnection.findUnique({ where: { id: connectionId } });
  if (!c?.credentials) {
    const label = c ? vendorLabel(c.vendor) : "vendor";
    throw new VendorError(
      `The contract's ${label} account is disconnected: connect ${label} again in Settings → Printing.`,
      "key_revoked",
    );
  }
  const { value } = open<Secrets>(c.credentials, c.id);
  return {
    apiKey: value.apiKey,
    webhookSecret: value.webhookSecret ?? "",
    mode: c.mode as "test" | "live",
    workspaceId: c.workspaceId,
    status: c.status,
    settings: (c.settings ?? {}) as Record<string, unknown>,
  };
}

/** A connection's secrets and what it keeps, opened for printing and webhooks. */
export interface VendorAccount {
  apiKey: string;
  /** Empty for a vendor that sends no webhooks. */
  webhookSecret: string;
  mode: "test" | "live";
  workspaceId: string;
  status: string;
  settings: Record<string, unknown>;
}

/**
 * The vendor refused the key while printing: the connection is marked and every contract on it
 * suspended (nothing more is sent), and the owner sees why in Settings → Printing and the audit log.
 */
export async function suspendForRevokedKey(db: Db, p: { connectionId: string; message: string }) {
  const c = await db.printVendorConnection.findUnique({ where: { id: p.connectionId } });
  if (!c || c.status === "key_revoked") return;
  await db.printVendorConnection.update({
    where: { id: c.id },
    data: { status: "key_revoked", statusReason: p.message.slice(0, 500) },
  });
  await recordAudit(
    db,
    c.workspaceId,
    { kind: "system", id: null, label: vendorLabel(c.vendor) },
    "print_vendor.key_revoked",
    { type: "print_vendor_connection", id: c.id },
    { vendor: c.vendor, message: p.message.slice(0, 300) },
  );
  await notifyVendorConnectionFailed(db, {
    workspaceId: c.workspaceId,
    connectionId: c.id,
    vendor: vendorLabel(c.vendor),
    reason: p.message,
    settingsPath: "/settings/printing",
  });
}
