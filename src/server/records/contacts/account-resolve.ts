import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { hotSql } from "@/server/ground/platform/hot-transaction";
import { companyDomainOf } from "./keys";
import { newAccountCache, newId, type Plan, type WriteOptions } from "./write-model";

/**
 * A copy of a string that shares no memory with the text it was cut from. A value read from a CSV
 * is a slice of the parser's whole chunk, so keeping it in the import-long account cache kept
 * every chunk of the file alive (17 MB of a 23 MB file, half-way through).
 */
const detached = (s: string) => Buffer.from(s, "utf16le").toString("utf16le");

/**
 * Each plan's account: by the company's name, else by the web domain (the website column, else
 * the email's domain unless it is free mail), else a new account: named by the company, or by the
 * domain, or, for a person with neither, after the person (an account of their own).
 */
export async function resolveAccounts(tx: Db, o: WriteOptions, all: Plan[]): Promise<Map<Plan, string>> {
  const out = new Map<Plan, string>();
  if (!all.length) return out;
  // A CRM sync names the account of the contact's company (written before its contacts).
  for (const p of all) if (p.row.accountId) out.set(p, p.row.accountId);
  const plans = all.filter((p) => !out.has(p));
  if (!plans.length) return out;
  const cache = o.accountCache ?? newAccountCache();
  const wants = plans.map((p) => ({
    plan: p,
    company: p.row.company,
    domain: p.row.website ?? companyDomainOf(p.row.email ?? p.existing?.email) ?? null,
  }));
  // Only what no earlier batch resolved is looked up, each company/domain pair once.
  const cached = (w: (typeof wants)[number]) =>
    w.company ? cache.byCompany.get(w.company) : w.domain ? cache.byDomain.get(w.domain) : undefined;
  const pairs = new Map<string, { i: number; name: string; domain: string | null }>();
  for (const w of wants) {
    if (cached(w) || (!w.company && !w.domain)) continue;
    const k = `${w.company ?? ""}\u0000${w.domain ?? ""}`;
    if (!pairs.has(k)) pairs.set(k, { i: pairs.size, name: w.company ?? "", domain: w.domain });
  }
  const requests = [...pairs.values()];
  const found = requests.length
    ? await hotSql<{ i: number; key: string; byName: string | null; byDomain: string | null }>(
        tx,
        Prisma.sql`
    WITH q AS (
      SELECT r.i, r.domain, btrim(regexp_replace(lower(r.name), '[^[:alnum:]]+', ' ', 'g')) AS key
        FROM jsonb_to_recordset(${JSON.stringify(requests)}::jsonb) AS r(i int, name text, domain text))
    SELECT q.i, q.key,
           (SELECT a.id FROM "Account" a WHERE a."workspaceId" = ${o.workspaceId} AND q.key <> '' AND a."nameKey" = q.key
             ORDER BY (a.domain IS NOT DISTINCT FROM q.domain) DESC, a."createdAt", a.id LIMIT 1) AS "byName",
           (SELECT a.id FROM "Account" a WHERE a."workspaceId" = ${o.workspaceId} AND a.domain = q.domain) AS "byDomain"
      FROM q`,
      )
    : [];
  const byPair = new Map(found.map((f) => [f.i, f]));
  const newByKey = new Map<string, string>();
  const creates: { id: string; name: string; domain: string | null }[] = [];
  // Rows with a company first, so that a row with only a domain joins the company's new account.
  const order: number[] = [];
  for (let i = 0; i < wants.length; i++) if (wants[i].company) order.push(i);
  for (let i = 0; i < wants.length; i++) if (!wants[i].company) order.push(i);
  for (const i of order) {
    const w = wants[i];
    let id = cached(w);
    if (!id && (w.company || w.domain)) {
      const f = byPair.get(pairs.get(`${w.company ?? ""}\u0000${w.domain ?? ""}`)!.i)!;
      id =
        f.byName ??
        f.byDomain ??
        (f.key ? newByKey.get(f.key) : undefined) ??
        (w.domain ? cache.byDomain.get(w.domain) : undefined);
      if (!id) {
        id = newId("acc");
        creates.push({ id, name: (w.company ?? w.domain!).slice(0, 200), domain: w.domain });
        if (f.key) newByKey.set(f.key, id);
      }
    }
    if (!id) {
      // Neither a company nor a company domain: an account of the person's own.
      id = newId("acc");
      const person = [
        w.plan.row.firstName || w.plan.existing?.firstName,
        w.plan.row.lastName || w.plan.existing?.lastName,
      ]
        .filter(Boolean)
        .join(" ");
      creates.push({
        id,
        name: (person || w.plan.row.email || w.plan.existing?.email || "Unnamed").slice(0, 200),
        domain: null,
      });
    }
    if (w.company && !cache.byCompany.has(w.company)) cache.byCompany.set(detached(w.company), id);
    if (w.domain && !cache.byDomain.has(w.domain)) cache.byDomain.set(detached(w.domain), id);
    out.set(w.plan, id);
  }
  if (creates.length) {
    await hotSql(
      tx,
      Prisma.sql`
      INSERT INTO "Account" (id, "workspaceId", name, domain, source, "sourceDetail", "createdAt", "updatedAt")
      SELECT a.id, ${o.workspaceId}, a.name, a.domain, ${o.source}::"RecordSource", ${o.sourceDetail}, now(), now()
        FROM jsonb_to_recordset(${JSON.stringify(creates)}::jsonb) AS a(id text, name text, domain text)`,
    );
  }
  return out;
}
