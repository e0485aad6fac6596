/** What the MCP server says it can do, in `initialize` and in its server card alike: it is stateless, so no list-changed notifications and no subscriptions. */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  prompts: { listChanged: false },
} as const;
