import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { MCP_TOOLS } from "@/server/doors/mcp/catalog";
import { MCP_RESOURCES } from "@/server/doors/mcp/resources";
import { MCP_PROMPTS } from "@/server/doors/mcp/prompts";
import { MCP_CAPABILITIES } from "@/server/doors/mcp/capabilities";
import { annotationsOf, toolMeta } from "@/server/doors/mcp/tool";
import { mcpResource, OAUTH_PATHS } from "@/server/records/oauth/config";
import { MCP_SCOPES } from "@/server/records/oauth/scopes";
import { TOOLSETS, TOOLSETS_SENTENCE, toolsetOf } from "@/server/doors/mcp/toolsets";
import { SERVICE_NAME, SERVICE_VERSION } from "@/server/ground/platform/version";

export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
export const MCP_SERVER_NAME = "io.direct-mail-programme/workspace";
export const MCP_SERVER_DESCRIPTION =
  "Run a direct-mail programme (postcards, letters, handwritten notes, gifts) for one workspace: read campaigns, audiences, contacts and lift results, edit drafts, admit contacts, and ask for consequential actions (go live, print, spend), each of which waits for the owner to accept a confirmation card in the browser.";

/** The MCP server card (SEP-2127 draft), built from the same tool and resource lists the server registers. */
export function serverCard(base: string) {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: MCP_SERVER_NAME,
    version: SERVICE_VERSION,
    title: SERVICE_NAME,
    description: MCP_SERVER_DESCRIPTION,
    websiteUrl: `${base}/llms.txt`,
    remotes: [
      {
        type: "streamable-http",
        url: mcpResource(base),
        supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
        authentication: {
          required: true,
          schemes: ["oauth2"],
          protectedResourceMetadata: `${base}${OAUTH_PATHS.protectedResource}`,
          authorizationServer: base,
          scopes: [...MCP_SCOPES],
          documentation: `${base}/auth.md`,
        },
      },
    ],
    capabilities: MCP_CAPABILITIES,
    resources: MCP_RESOURCES.map((r) => ({
      uri: r.uri(base),
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
    // Names, titles and hints only, to stay small: tools/list gives descriptions and input
    // schemas; /agents/tools.json gives everything, result schemas included.
    tools: MCP_TOOLS.map((t) => ({ name: t.name, title: t.title, annotations: annotationsOf(t), _meta: toolMeta(t) })),
    prompts: MCP_PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: Object.entries(p.args).map(([name, schema]) => ({
        name,
        description: schema.description,
        required: !schema.isOptional(),
      })),
    })),
    _meta: {
      "io.direct-mail-programme/policy": `${base}/agents/policy.md`,
      "io.direct-mail-programme/tools": `${base}/agents/tools.json`,
      "io.direct-mail-programme/toolsets": {
        description: TOOLSETS_SENTENCE,
        header: "X-MCP-Toolsets",
        query: "toolsets",
        readonlyHeader: "X-MCP-Readonly",
        readonlyQuery: "readonly",
        toolsets: Object.fromEntries(
          Object.entries(TOOLSETS).map(([name, what]) => [
            name,
            { description: what, tools: MCP_TOOLS.filter((t) => toolsetOf(t.name) === name).map((t) => t.name) },
          ]),
        ),
        always: MCP_TOOLS.filter((t) => toolsetOf(t.name) === "always").map((t) => t.name),
      },
    },
  };
}

/** /.well-known/mcp/catalog.json: the servers of this site, each with its card. */
export function serverCatalog(base: string) {
  return {
    servers: [
      {
        name: MCP_SERVER_NAME,
        title: SERVICE_NAME,
        description: MCP_SERVER_DESCRIPTION,
        url: mcpResource(base),
        serverCard: `${base}/.well-known/mcp`,
        serverCardAlternates: [`${base}/.well-known/mcp/server-card`, `${base}/api/mcp/server-card`],
      },
    ],
  };
}
