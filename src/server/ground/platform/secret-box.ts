import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, dataFolder, databaseTarget, type Env } from "@/server/ground/platform/config";

/**
 * Encryption at rest for CRM credentials: AES-256-GCM with a 32-byte key kept outside the
 * database, so a copy of the database alone reveals no credential.
 *
 * - `CRM_ENCRYPTION_KEY` (32 bytes, base64 or hex): the key new ciphertexts use. Required on
 *   PostgreSQL, where every instance must share it.
 * - On the embedded database without it: a key file made once in the data folder
 *   (`$DATA_DIR/crm-encryption.key`, mode 0600), beside the database but not in it.
 * - `CRM_ENCRYPTION_OLD_KEYS` (comma-separated): earlier keys, still read. A ciphertext names its
 *   key by id (the first 8 hex digits of the key's SHA-256), and a connection's credentials are
 *   re-encrypted under the current key at its next sync, so rotating is: new key in
 *   CRM_ENCRYPTION_KEY, the old one in CRM_ENCRYPTION_OLD_KEYS until every connection has synced.
 *
 * A ciphertext is bound to its connection (the connection's id is the GCM associated data), so
 * it cannot be moved to another row.
 */

const VERSION = "v1";

export interface Keyring {
  current: { id: string; key: Buffer };
  all: Map<string, Buffer>;
}

export const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

function parseKey(text: string, name: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  if (key.length !== 32)
    throw new ConfigError(
      `${name} must be 32 bytes, written as 64 hex digits or base64 (generate one with \`openssl rand -base64 32\`).`,
    );
  return key;
}

const b64 = (b: Buffer) => b.toString("base64url");

let cached: { signature: string; ring: Keyring } | null = null;

/** The keys from the environment (or the embedded key file); throws a ConfigError with one sentence. */
export function keyring(env: Env = process.env): Keyring {
  const signature = `${env.CRM_ENCRYPTION_KEY ?? ""}|${env.CRM_ENCRYPTION_OLD_KEYS ?? ""}|${env.DATABASE_URL ?? ""}|${env.DATA_DIR ?? ""}`;
  if (cached?.signature === signature) return cached.ring;
  let current: Buffer;
  if (env.CRM_ENCRYPTION_KEY?.trim()) current = parseKey(env.CRM_ENCRYPTION_KEY, "CRM_ENCRYPTION_KEY");
  else {
    const target = databaseTarget(env);
    if (target.kind === "postgres") {
      throw new ConfigError(
        "Storing credentials (CRM connections, a Lob key, webhook signing secrets) on PostgreSQL needs CRM_ENCRYPTION_KEY (32 bytes, base64: `openssl rand -base64 32`), the same on every instance, so they are encrypted with a key kept outside the database.",
      );
    }
    current = target.kind === "memory" ? memoryKey() : embeddedKey(dataFolder(env));
  }
  const all = new Map<string, Buffer>([[keyId(current), current]]);
  for (const [i, old] of (env.CRM_ENCRYPTION_OLD_KEYS ?? "")
    .split(",")
    .filter((s) => s.trim())
    .entries()) {
    const key = parseKey(old, `CRM_ENCRYPTION_OLD_KEYS (key ${i + 1})`);
    all.set(keyId(key), key);
  }
  const ring = { current: { id: keyId(current), key: current }, all };
  cached = { signature, ring };
  return ring;
}

let processKey: Buffer | null = null;
/** A throwaway key for an in-memory database (tests): it lives exactly as long as the data. */
const memoryKey = () => (processKey ??= randomBytes(32));

/** The embedded database's key file, made once (mode 0600) beside the database. */
function embeddedKey(folder: string): Buffer {
  const file = path.join(folder, "crm-encryption.key");
  try {
    return parseKey(fs.readFileSync(file, "utf8"), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(folder, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseKey(fs.readFileSync(file, "utf8"), file);
}

/** Encrypts `plain` (JSON) for the row `boundTo` under the current key. */
export function seal(plain: unknown, boundTo: string, ring = keyring()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const data = Buffer.concat([cipher.update(JSON.stringify(plain), "utf8"), cipher.final()]);
  return [VERSION, ring.current.id, b64(iv), b64(cipher.getAuthTag()), b64(data)].join(".");
}

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

/** Decrypts what `seal` made for the same row; `stale` when it was made under an older key. */
export function open<T>(sealed: string, boundTo: string, ring = keyring()): { value: T; stale: boolean } {
  const [version, id, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !id || !iv || !tag || data === undefined)
    throw new SecretBoxError("The stored credentials are not in a format this service reads.");
  const key = ring.all.get(id);
  if (!key)
    throw new SecretBoxError(
      `The stored credentials were encrypted with key ${id}, which is not configured (CRM_ENCRYPTION_KEY or CRM_ENCRYPTION_OLD_KEYS).`,
    );
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    return { value: JSON.parse(plain) as T, stale: id !== ring.current.id };
  } catch {
    throw new SecretBoxError("The stored credentials could not be decrypted (wrong key, or not this connection's).");
  }
}
