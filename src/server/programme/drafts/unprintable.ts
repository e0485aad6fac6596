import type { Db } from "@/server/ground/db";

/** Recipients named in the readiness sentence; the rest are counted. */
const NAMED = 3;

interface StoredIssue {
  kind?: string;
  message?: string;
  chars?: unknown;
}

/** The characters a missing_glyphs issue names (drafts rendered before `chars` was stored keep them in the message). */
function charsOf(issue: StoredIssue): string[] {
  if (Array.isArray(issue.chars)) return issue.chars.filter((c): c is string => typeof c === "string");
  const m = issue.message?.match(/^No bundled font can draw (.+) in the /);
  return m ? m[1].split(" ") : [];
}

/**
 * A campaign's drafts that would print a character no bundled font has (the renderer's
 * missing_glyphs issue), with the first few recipients and their characters, and a sentence
 * saying so: going live waits until they are fixed (campaigns/readiness.ts) and an agent's go-live
 * card repeats it.
 */
export async function unprintableDrafts(db: Db, p: { workspaceId: string; campaignId: string }) {
  const where = {
    workspaceId: p.workspaceId,
    campaignId: p.campaignId,
    issues: { array_contains: [{ kind: "missing_glyphs" }] },
  };
  // One read after another: going live asks this inside its transaction (one connection).
  const count = await db.draft.count({ where });
  const rows = await db.draft.findMany({
    where,
    orderBy: { id: "asc" },
    take: NAMED,
    select: { issues: true, contact: { select: { firstName: true, lastName: true, email: true } } },
  });
  const recipients = rows.map((r) => {
    const chars = [
      ...new Set(((r.issues ?? []) as StoredIssue[]).filter((i) => i.kind === "missing_glyphs").flatMap(charsOf)),
    ];
    const name =
      `${r.contact.firstName} ${r.contact.lastName}`.trim() || r.contact.email || "a recipient without a name";
    return { name, chars };
  });
  return { count, recipients, sentence: count ? unprintableSentence(count, recipients) : null };
}

function unprintableSentence(count: number, recipients: { name: string; chars: string[] }[]): string {
  const named = recipients.map((r) => `${r.name} (${r.chars.join(" ")})`);
  const more = count - recipients.length;
  const list =
    more > 0
      ? `${named.join(", ")} and ${more} more`
      : named.length > 1
        ? `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`
        : named[0];
  const pieces = count === 1 ? "1 recipient's piece has" : `${count.toLocaleString("en-US")} recipients' pieces have`;
  return `${pieces} characters no bundled font can print, which would print as empty boxes: ${list}. Correct those names or addresses (or take the recipients out of the audience) and generate the drafts again.`;
}
