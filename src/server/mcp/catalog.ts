import { campaignTools } from "./tools/campaigns";
import { confirmationTools } from "./tools/confirmations";
import { entryTools } from "./tools/entry";
import { measurementTools } from "./tools/measurement";
import { workspaceTools } from "./tools/workspace";
import type { ToolDef } from "./tool";

/** Every MCP tool. The server registers these and the published documents list them. */
export const MCP_TOOLS: ToolDef[] = [...workspaceTools, ...campaignTools, ...entryTools, ...measurementTools, ...confirmationTools] as unknown as ToolDef[];
