import type { Db } from "@/server/ground/db";
import { sharedFactsFor } from "./facts";
import { countriesChange, judgesLike } from "./judged-alike";

/** An audit older than this is run again before go-live: addresses go out of date. */
export const AUDIT_MAX_AGE_DAYS = 30;

/**
 * Why an audit no longer describes what a campaign would mail, in one sentence, or null when it
 * still does: too old, contacts added to the audience or edited since, suppressions added since,
 * the campaign's audience, format or design changed, or the printers' countries changed for some
 * of its contacts (a printer approved for countries none of them is in changes nothing).
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
    if (shared.campaign && shared.campaign.audienceId !== audit.audienceId)
      return "the campaign's audience changed since.";
    if (!judgesLike(audit, shared)) return "the campaign's format or design changed since.";
    const then = audit.countriesJudged ? new Set(audit.coveredCountries) : null;
    const { lost, gained } = await countriesChange(db, {
      workspaceId: p.workspaceId,
      audienceId: audit.audienceId,
      then,
      now: shared.coveredCountries,
    });
    const people = ([c, k]: [string, number]) => `${c} (${k === 1 ? "1 contact" : `${n(k)} contacts`})`;
    const said = [
      lost.length ? `no approved printer mails to ${lost.map(people).join(", ")} now` : "",
      gained.length ? `an approved printer now mails to ${gained.map(people).join(", ")}` : "",
    ].filter(Boolean);
    if (said.length) return `the printers' countries changed since: ${said.join("; ")}.`;
  }
  return null;
}
