import type { TAction } from "@/server/ground/access/roles";
import type { ToolDef } from "./tool";

/**
 * Tools that do more than their kind says: they mail, spend, end a campaign or erase a person, so
 * they need the role the same step needs in the browser (see procedure-actions.ts).
 */
const TOOL_ACTION_OVERRIDES: Record<string, TAction> = {
  campaigns_pause: "decide",
  campaigns_end: "decide",
  campaigns_send_to: "decide",
  entry_events_post: "decide",
  entry_events_post_batch: "decide",
  contacts_delete: "administer",
  crm_sync_start: "administer",
};

const KIND_ACTIONS: Record<ToolDef["kind"], TAction> = { read: "read", write: "prepare", request: "request" };

/** What calling the tool does, checked against the role of the person who connected the agent. */
export function toolAction(tool: Pick<ToolDef, "name" | "kind">): TAction {
  return TOOL_ACTION_OVERRIDES[tool.name] ?? KIND_ACTIONS[tool.kind];
}
