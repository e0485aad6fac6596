import type { EntryPolicy } from "@/generated/prisma/enums";

/** The policy in a person's words (campaign form, page, card). */
export const ENTRY_POLICY_WORDS: Record<EntryPolicy, string> = {
  audience_at_go_live: "Everyone in the audience when the campaign goes live, once",
  audience_joins: "Everyone in the audience when it goes live, and each person added to the audience afterwards",
  none: "Nobody by itself: only people you, an agent or your systems send (by hand or with entry events)",
};
