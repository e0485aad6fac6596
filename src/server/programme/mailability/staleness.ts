import type { Db } from "@/server/ground/db";
import { sharedFactsFor } from "./facts";

/** An audit older than this is run again before go-live: addresses go out of date. */
export const AUDIT_MAX_AGE_DAYS = 30;

/**
 * Why an audit no longer describes what a campaign would mail, in one sentence, or null when it
 * still does: too old, contacts added to the audience or edited since, suppressions added since,
 * or the campaign's format, design size or printer's countries changed.
 */
export async function auditStaleness(
  db: Db,
  p: { workspaceId: string; auditId: string; campaignId?: string | null; now?: Date },
): Promise<string | null> {
  const audit = await db.mailabilityAudit.findFirst({ where: { id: p.auditId, workspaceId: p.workspaceId } });
  if (!audit?.audienceId) return "its audience is gone.";
  const since = audit.startedAt ?? audit.createdAt;
  const now = p.now ?? new Date();
  if (now.getTime() - audit.createdAt.getTime() > AUDIT_MAX_AGE_DAYS * 86_400_000)
    return `it is more than ${AUDIT_MAX_AGE_DAYS} days old.`;
  // One read after another: going live asks this inside its transaction (one connection).
  const added = await db.audienceMember.count({
    where: { audienceId: audit.audienceId, workspaceId: p.workspaceId, addedAt: { gt: since } },
  });
  const edited = await db.contact.count({
    where: {
      workspaceId: p.workspaceId,
      updatedAt: { gt: since },
      audienceMembers: { some: { audienceId: audit.audienceId } },
    },
  });
  const suppressions = await db.suppression.count({ where: { workspaceId: p.workspaceId, createdAt: { gt: since } } });
  const shared = p.campaignId
    ? await sharedFactsFor(db, { workspaceId: p.workspaceId, campaignId: p.campaignId })
    : null;
  const n = (k: number) => k.toLocaleString("en-US");
  if (added)
    return added === 1 ? "1 contact joined the audience since." : `${n(added)} contacts joined the audience since.`;
  if (edited)
    return edited === 1
      ? "1 contact of the audience was edited since."
      : `${n(edited)} contacts of the audience were edited since.`;
  if (suppressions) return "suppressions were added since.";
  if (shared) {
    if ((shared.format ?? null) !== audit.format || shared.block.size !== audit.blockSize)
      return "the campaign's format or design changed since.";
    const now = shared.coveredCountries ? [...shared.coveredCountries].sort().join(",") : null;
    const then = audit.countriesJudged ? [...audit.coveredCountries].sort().join(",") : null;
    if (now !== then) return "the printers' countries changed since.";
  }
  return null;
}
