import { auditTools } from "./tools/audits";
import { audienceTools } from "./tools/audiences";
import { campaignTools } from "./tools/campaigns";
import { confirmationTools } from "./tools/confirmations";
import { creativeTools } from "./tools/creative";
import { crmTools } from "./tools/crm";
import { contactTools } from "./tools/contacts";
import { entryTools } from "./tools/entry";
import { measurementTools } from "./tools/measurement";
import { planTools } from "./tools/plans";
import { responseTools } from "./tools/responses";
import { webhookTools } from "./tools/webhooks";
import { workspaceTools } from "./tools/workspace";
import type { ToolDef } from "./tool";

/** Every MCP tool. The server registers these and the published documents list them. */
export const MCP_TOOLS: ToolDef[] = [...workspaceTools, ...contactTools, ...crmTools, ...audienceTools, ...auditTools, ...campaignTools, ...creativeTools, ...entryTools, ...measurementTools, ...responseTools, ...planTools, ...confirmationTools, ...webhookTools] as unknown as ToolDef[];
