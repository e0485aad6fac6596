import { auditTools } from "./tools/audits";
import { audienceTools } from "./tools/audiences";
import { campaignTools } from "./tools/campaigns";
import { confirmationTools } from "./tools/confirmations";
import { creativeTools } from "./tools/creative";
import { crmTools } from "./tools/crm";
import { contactTools } from "./tools/contacts";
import { entryTools } from "./tools/entry";
import { giftTools } from "./tools/gifts";
import { measurementTools } from "./tools/measurement";
import { contactEditTools } from "./tools/contact-edits";
import { outcomeTools } from "./tools/outcomes";
import { pieceTools } from "./tools/pieces";
import { planTools } from "./tools/plans";
import { responseTools } from "./tools/responses";
import { webhookTools } from "./tools/webhooks";
import { workspaceTools } from "./tools/workspace";
import type { ToolDef } from "./tool";

/**
 * Every MCP tool. The server registers these and the published documents list them. Each tool is
 * typed by its own input and result; the list holds them as ToolDef, whose run takes any input.
 */
export const MCP_TOOLS: ToolDef[] = [
  ...workspaceTools,
  ...contactTools,
  ...contactEditTools,
  ...crmTools,
  ...audienceTools,
  ...auditTools,
  ...campaignTools,
  ...creativeTools,
  ...giftTools,
  ...entryTools,
  ...pieceTools,
  ...measurementTools,
  ...outcomeTools,
  ...responseTools,
  ...planTools,
  ...confirmationTools,
  ...webhookTools,
] as unknown as ToolDef[];
