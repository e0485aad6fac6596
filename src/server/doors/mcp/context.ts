import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { PrismaClient } from "@/generated/prisma/client";
import type { MembershipRole } from "@/generated/prisma/enums";
import type { Actor } from "@/server/ground/audit/service";
import type { TMcpScope } from "@/server/records/oauth/scopes";
import type { McpLog } from "./logging";
import type { ToolSelection } from "./toolsets";

/** What every MCP tool receives: built per request from the verified access token. */
export interface McpContext {
  db: PrismaClient;
  base: string;
  workspaceId: string;
  grantId: string;
  clientName: string;
  scopes: TMcpScope[];
  /** The role of the person who connected the agent: the agent acts with it, never more. */
  role: MembershipRole;
  /** The agent as the audit log and confirmation cards name it. */
  actor: Actor;
  /** The client can open a URL for the person (URL-mode elicitation): requests point it to the card. */
  urlElicitation?: boolean;
  /** The toolsets and read-only mode the request named; every tool when absent. */
  tools?: ToolSelection;
  /** The least severe log level the client asked for (logging/setLevel); null or absent: send none. */
  logLevel?: LoggingLevel | null;
  /** Keeps the level a client sets for its later requests (on its grant); absent: for this connection only. */
  saveLogLevel?: (level: LoggingLevel) => Promise<void>;
  /** Log notifications for the tool call being answered (set per call by the server). */
  log?: McpLog;
}
