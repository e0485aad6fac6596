import { randomUUID } from "node:crypto";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { keyring, open, seal } from "@/server/ground/platform/secret-box";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { ConfigError } from "@/server/ground/platform/config";
import { baseUrl } from "@/server/ground/platform/base-url";
import { notifyVendorConnectionFailed } from "@/server/records/email/notify-events";
import { VendorError } from "./adapter";
import { explainLobError, type LobAccount, lobSdk } from "./vendors/lob";

interface Secrets {
  apiKey: string;
  webhookSecret: string;
}

/** Lob's API base: LOB_API_URL, else Lob's own. */
export const lobApiUrl = (env: Record<string, string | undefined> = process.env) =>
  env.LOB_API_URL?.trim() || "https://api.lob.com/v1";

/** The URL to paste into Lob's dashboard as the webhook's URL. */
export const webhookUrlOf = (vendor: string, connectionId: string) =>
  `${baseUrl()}/api/webhooks/${vendor}/${connectionId}`;

const modeOfKey = (apiKey: string): "test" | "live" | null =>
  apiKey.startsWith("test_") ? "test" : apiKey.startsWith("live_") ? "live" : null;

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
}) {
  return {
    connectionId: c.id,
    vendor: c.vendor,
    mode: c.mode as "test" | "live",
    status: c.status as "connected" | "disconnected" | "key_revoked",
    keyHint: c.keyHint,
    connectedBy: c.connectedByLabel,
    connectedAt: c.connectedAt,
    disconnectedAt: c.disconnectedAt,
    statusReason: c.statusReason,
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

/** Checks a Lob key with a read that creates nothing (the first page of postcards). */
async function checkLobKey(apiKey: string) {
  const { Configuration, PostcardsApi } = await lobSdk();
  try {
    await new PostcardsApi(new Configuration({ username: apiKey, basePath: lobApiUrl() })).list(1);
  } catch (error) {
    const e = explainLobError(error);
    if (e.reason === "key_revoked")
      throw new AppError(
        "validation_failed",
        "Lob refused this API key: it is wrong or has been revoked. Copy a secret key from Lob's dashboard (Settings → API Keys). Nothing was saved.",
        { errors: [{ pointer: "/apiKey", detail: "Lob refused this key." }] },
      );
    if (e.reason === "rate_limited")
      throw new AppError(
        "rate_limited",
        "Lob is limiting requests right now, so the key could not be checked; nothing was saved. Try again in a minute.",
      );
    throw new AppError(
      "validation_failed",
      `Lob could not be reached to check the key (${e.message}). Nothing was saved; try again in a moment.`,
      { errors: [{ pointer: "/apiKey", detail: "Lob could not be reached." }] },
    );
  }
}

/**
 * Connects the workspace's own Lob account: checks the key with Lob at once, stores the key and
 * the webhook signing secret encrypted (the CRM secret box, bound to the connection's id), and
 * answers the webhook URL to paste into Lob. A test key (`test_…`) prints nothing real.
 */
export async function connectVendor(
  db: Db,
  p: { workspaceId: string; input: { vendor: "lob"; apiKey: string; webhookSecret: string }; actor: Actor },
) {
  const apiKey = p.input.apiKey.trim();
  const webhookSecret = p.input.webhookSecret.trim();
  const mode = modeOfKey(apiKey);
  if (!mode)
    throw new AppError(
      "validation_failed",
      "A Lob secret API key starts with test_ or live_ (the publishable keys, test_pub_ or live_pub_, cannot print).",
      { errors: [{ pointer: "/apiKey", detail: "Paste a secret key: test_… or live_…" }] },
    );
  if (apiKey.startsWith("test_pub_") || apiKey.startsWith("live_pub_"))
    throw new AppError(
      "validation_failed",
      "That is a publishable key; paste the secret API key (test_… or live_…) from Lob's dashboard.",
      { errors: [{ pointer: "/apiKey", detail: "Paste the secret key." }] },
    );
  if (!webhookSecret)
    throw new AppError("validation_failed", "Paste the signing secret Lob shows for the webhook you created.", {
      errors: [{ pointer: "/webhookSecret", detail: "Paste the webhook's signing secret." }],
    });
  try {
    keyring();
  } catch (error) {
    if (error instanceof ConfigError)
      throw new AppError("invalid_state", `Print vendor connections are not set up on this server: ${error.message}`);
    throw error;
  }
  await checkLobKey(apiKey);
  const id = `pvc_${randomUUID().replace(/-/g, "")}`;
  const created = await db.printVendorConnection.create({
    data: {
      id,
      workspaceId: p.workspaceId,
      vendor: p.input.vendor,
      mode,
      status: "connected",
      credentials: seal({ apiKey, webhookSecret } satisfies Secrets, id),
      keyHint: apiKey.slice(-4),
      connectedByLabel: p.actor.label,
    },
  });
  // Contracts whose Lob account was disconnected or refused, in the same mode, print through this one now.
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
  return { connectionId: created.id, vendor: "lob" as const, mode, webhookUrl: webhookUrlOf("lob", created.id) };
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
export async function openConnection(
  db: Db,
  connectionId: string,
): Promise<LobAccount & { webhookSecret: string; workspaceId: string; status: string }> {
  const c = await db.printVendorConnection.findUnique({ where: { id: connectionId } });
  if (!c?.credentials)
    throw new VendorError(
      "The contract's Lob account is disconnected: connect Lob again in Settings → Printing.",
      "key_revoked",
    );
  const { value } = open<Secrets>(c.credentials, c.id);
  return {
    apiKey: value.apiKey,
    webhookSecret: value.webhookSecret,
    mode: c.mode as "test" | "live",
    workspaceId: c.workspaceId,
    status: c.status,
  };
}

/**
 * Lob refused the key while printing: the connection is marked and every contract on it
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
    { kind: "system", id: null, label: "Lob" },
    "print_vendor.key_revoked",
    { type: "print_vendor_connection", id: c.id },
    { vendor: c.vendor, message: p.message.slice(0, 300) },
  );
  await notifyVendorConnectionFailed(db, {
    workspaceId: c.workspaceId,
    connectionId: c.id,
    vendor: c.vendor === "lob" ? "Lob" : c.vendor,
    reason: p.message,
    settingsPath: "/settings/printing",
  });
}
