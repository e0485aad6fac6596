import type { Db } from "@/server/ground/db";
import { addressKey } from "@/server/records/addresses/checks";
import { contactKeys } from "./keys";

/** The backfill migration 20261126164550_address_keys_v2 records as pending. */
export const ADDRESS_KEYS_V2 = "address_keys_v2";
const BATCH = 1000;

/**
 * The parts of a key of the first kind (`COUNTRY|POSTAL|CITY|LINE 1|LINE 2`, upper case), read
 * back as an address: what an address suppression or a cached verification kept, which stored no
 * other copy of the address. Null for a key of the present kind (four parts).
 */
export function oldKeyAddress(
  key: string,
): { country: string; postalCode: string; city: string; addressLine1: string; addressLine2: string } | null {
  const parts = key.split("|");
  if (parts.length !== 5) return null;
  const [country, postalCode, city, addressLine1, addressLine2] = parts;
  return { country, postalCode, city, addressLine1, addressLine2 };
}

/**
 * Recomputes every stored address key with today's addressKey, once (the migration inserts the
 * pending row; doneAt marks it run): each contact's addressKey and matchKey from its fields; each
 * address suppression's value as the new key of a contact that had the same old key (so what
 * matched before still matches), else from the old key's own parts; each cached verification's
 * key likewise. Two suppressions, or two cached answers, that become one are kept once (the
 * oldest suppression, the newest answer). Safe to run again; returns what it changed.
 */
export async function recomputeAddressKeys(
  db: Db,
  opts: { force?: boolean } = {},
): Promise<{ contacts: number; suppressions: number; verifications: number } | null> {
  const pending = await db.dataBackfill.findUnique({ where: { name: ADDRESS_KEYS_V2 } });
  if (!opts.force && (!pending || pending.doneAt)) return null;
  const result = { contacts: 0, suppressions: 0, verifications: 0 };
  // workspace + old key -> new key, for the suppressions that named a contact's address.
  const carried = new Map<string, string>();

  let cursor: string | undefined;
  for (;;) {
    const rows = await db.contact.findMany({
      where: { addressKey: { not: null } },
      select: {
        id: true,
        workspaceId: true,
        firstName: true,
        lastName: true,
        addressLine1: true,
        addressLine2: true,
        city: true,
        region: true,
        postalCode: true,
        country: true,
        addressKey: true,
        matchKey: true,
      },
      orderBy: { id: "asc" },
      take: BATCH,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (!rows.length) break;
    cursor = rows[rows.length - 1].id;
    const changed: { id: string; addressKey: string | null; matchKey: string | null }[] = [];
    for (const c of rows) {
      const keys = contactKeys(c);
      if (c.addressKey && keys.addressKey) carried.set(`${c.workspaceId} ${c.addressKey}`, keys.addressKey);
      if (keys.addressKey !== c.addressKey || keys.matchKey !== c.matchKey) changed.push({ id: c.id, ...keys });
    }
    if (changed.length) {
      await db.$executeRaw`
        UPDATE "Contact" c SET "addressKey" = v.ak, "matchKey" = v.mk
          FROM unnest(${changed.map((r) => r.id)}::text[], ${changed.map((r) => r.addressKey)}::text[], ${changed.map((r) => r.matchKey)}::text[]) AS v(id, ak, mk)
         WHERE c.id = v.id`;
      result.contacts += changed.length;
    }
  }

  const suppressions = await db.suppression.findMany({
    where: { kind: "address" },
    select: { id: true, workspaceId: true, value: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const kept = new Set(suppressions.map((s) => `${s.workspaceId} ${s.value}`));
  for (const s of suppressions) {
    const old = oldKeyAddress(s.value);
    if (!old) continue;
    const next = carried.get(`${s.workspaceId} ${s.value}`) ?? addressKey(old);
    if (next === s.value) continue;
    kept.delete(`${s.workspaceId} ${s.value}`);
    if (kept.has(`${s.workspaceId} ${next}`)) await db.suppression.delete({ where: { id: s.id } });
    else await db.suppression.update({ where: { id: s.id }, data: { value: next } });
    kept.add(`${s.workspaceId} ${next}`);
    result.suppressions++;
  }

  const answers = await db.addressVerification.findMany({
    select: { id: true, workspaceId: true, verifier: true, addressKey: true },
    orderBy: [{ verifiedAt: "desc" }, { id: "asc" }],
  });
  const taken = new Set(answers.map((a) => `${a.workspaceId} ${a.verifier} ${a.addressKey}`));
  for (const a of answers) {
    const old = oldKeyAddress(a.addressKey);
    if (!old) continue;
    const next = addressKey(old);
    if (next === a.addressKey) continue;
    taken.delete(`${a.workspaceId} ${a.verifier} ${a.addressKey}`);
    if (taken.has(`${a.workspaceId} ${a.verifier} ${next}`))
      await db.addressVerification.delete({ where: { id: a.id } });
    else await db.addressVerification.update({ where: { id: a.id }, data: { addressKey: next } });
    taken.add(`${a.workspaceId} ${a.verifier} ${next}`);
    result.verifications++;
  }

  await db.dataBackfill.upsert({
    where: { name: ADDRESS_KEYS_V2 },
    create: { name: ADDRESS_KEYS_V2, doneAt: new Date() },
    update: { doneAt: new Date() },
  });
  return result;
}

/** The start-up step after the migrations: the data backfills a migration left pending. */
export async function runDataBackfills(db: Db, log: (line: string) => void = () => {}): Promise<void> {
  const rekeyed = await recomputeAddressKeys(db);
  if (rekeyed)
    log(
      `Address keys recomputed: ${rekeyed.contacts} contacts, ${rekeyed.suppressions} address suppressions, ${rekeyed.verifications} cached verifications`,
    );
}
