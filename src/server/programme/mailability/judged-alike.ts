import type { Db } from "@/server/ground/db";
import { blockOf, type TBlockSpec } from "@/server/records/addresses/address-block";
import { countryName } from "@/server/records/addresses/countries";
import type { TFormat } from "@/server/ground/render/page-specs";
import type { TFontFamily } from "@/server/ground/render/fonts";
import { isInformational, MAILABILITY_REASONS } from "./reasons";

type AuditRow = NonNullable<Awaited<ReturnType<Db["mailabilityAudit"]["findFirst"]>>>;

/** Every address that fits block `a` fits block `b`: the same font, at least as many characters a line and lines a block. */
function blockHolds(a: TBlockSpec, b: TBlockSpec): boolean {
  const x = blockOf(a);
  const y = blockOf(b);
  return (
    x.family === y.family &&
    y.box.w / y.minSize >= x.box.w / x.minSize - 1e-9 &&
    y.box.h / (y.minSize * y.lineHeight) >= x.box.h / (x.minSize * x.lineHeight) - 1e-9
  );
}

/**
 * Whether an audit judged its contacts' format and address block as the campaign would: its own
 * format (or an audience audit's, when no reason blocks one and not the other), and the same block,
 * or a block no larger that no address overflowed (an address that fits it fits the campaign's).
 * The printers' countries are weighed by auditStaleness, by the contacts they change.
 */
export function judgesLike(
  audit: Pick<AuditRow, "format" | "blockFormat" | "blockSize" | "blockHandwriting" | "reasons">,
  shared: { format: TFormat | null; block: TBlockSpec },
): boolean {
  const sameFormat =
    audit.format === shared.format ||
    (audit.format === null &&
      MAILABILITY_REASONS.every((r) => isInformational(r, null) === isInformational(r, shared.format)));
  if (!sameFormat) return false;
  const block: TBlockSpec = {
    format: audit.blockFormat as TFormat,
    size: audit.blockSize,
    handwriting: (audit.blockHandwriting as TFontFamily | null) ?? undefined,
  };
  const same =
    block.format === shared.block.format &&
    block.size === shared.block.size &&
    (block.handwriting ?? null) === (shared.block.handwriting ?? null);
  const overflowed = ((audit.reasons as Record<string, number> | null)?.address_too_long ?? 0) > 0;
  return same || (!overflowed && blockHolds(block, shared.block));
}

/**
 * What a change of the printers' countries does to an audience: the countries its contacts are in
 * that one set covers and the other does not, with how many contacts each (null: every country, as
 * before any printer). Empty when the change touches none of them, so the audit still holds.
 */
export async function countriesChange(
  db: Db,
  p: { workspaceId: string; audienceId: string; then: ReadonlySet<string> | null; now: ReadonlySet<string> | null },
): Promise<{ lost: [string, number][]; gained: [string, number][] }> {
  const covers = (set: ReadonlySet<string> | null, c: string) => set === null || set.has(c);
  const groups = await db.contact.groupBy({
    by: ["country"],
    where: { workspaceId: p.workspaceId, audienceMembers: { some: { audienceId: p.audienceId } } },
    _count: { _all: true },
  });
  const counts = new Map<string, number>();
  for (const g of groups) {
    const c = g.country?.trim().toUpperCase() ?? "";
    // A contact without a known country is judged unknown_country either way.
    if (!c || !countryName(c)) continue;
    counts.set(c, (counts.get(c) ?? 0) + g._count._all);
  }
  const lost: [string, number][] = [];
  const gained: [string, number][] = [];
  for (const [c, n] of [...counts].sort()) {
    const before = covers(p.then, c);
    const after = covers(p.now, c);
    if (before && !after) lost.push([c, n]);
    if (!before && after) gained.push([c, n]);
  }
  return { lost, gained };
}
