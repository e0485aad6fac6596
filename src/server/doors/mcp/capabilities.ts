/**
 * What the MCP server says it can do, in `initialize` and in its server card alike: it is
 * stateless, so no list-changed notifications and no subscriptions; log notifications for long
 * jobs (logging/setLevel) and completions of prompt arguments that name something in the workspace.
 */
export const MCP_CAPABILITIES = {
  logging: {},
  completions: {},
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  prompts: { listChanged: false },
} as const;
