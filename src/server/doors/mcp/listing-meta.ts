/**
 * Meta of an object whose members another tool already describes (campaigns_update_draft's
 * `changes`): tools/list gives their names and rules without repeating each description.
 */
export const DESCRIBED_ELSEWHERE = "x-members-described-elsewhere";
