/** What the renderer (and a draft) reports about a piece: { kind, message }. */
export interface TRenderIssueLike {
  kind: string;
  message: string;
}

export type TIssueGroup = "empty" | "overflow" | "missing_glyphs" | "po_box" | "missing_data" | "shrunk" | "other";

/** Each kind of issue under its own true title, those that stop printing first. */
export const ISSUE_GROUPS: Record<TIssueGroup, { title: string; color: "red" | "yellow" | "orange" }> = {
  empty: { title: "Text missing", color: "red" },
  overflow: { title: "Text does not fit", color: "red" },
  missing_glyphs: { title: "Characters that cannot be printed", color: "red" },
  po_box: { title: "An address a gift cannot go to", color: "orange" },
  missing_data: { title: "Merge data missing", color: "yellow" },
  shrunk: { title: "Adjusted to fit", color: "yellow" },
  other: { title: "Check before printing", color: "yellow" },
};
const ORDER = Object.keys(ISSUE_GROUPS) as TIssueGroup[];

/** The group of an issue: the layout reports an empty required block as an overflow ("The headline is empty."). */
export function issueGroup(i: TRenderIssueLike): TIssueGroup {
  if (i.kind === "overflow") return /\bis empty\.$/.test(i.message) ? "empty" : "overflow";
  return (ORDER as string[]).includes(i.kind) ? (i.kind as TIssueGroup) : "other";
}

/** The issues grouped, each group with its title and colour, in ORDER. */
export function groupIssues<T extends TRenderIssueLike>(
  issues: T[],
): { group: TIssueGroup; title: string; color: "red" | "yellow" | "orange"; issues: T[] }[] {
  const grouped = new Map<TIssueGroup, T[]>();
  for (const i of issues) grouped.set(issueGroup(i), [...(grouped.get(issueGroup(i)) ?? []), i]);
  return ORDER.filter((g) => grouped.has(g)).map((g) => ({ group: g, ...ISSUE_GROUPS[g], issues: grouped.get(g)! }));
}
