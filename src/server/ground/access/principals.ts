import { ApiKeyScope } from "@/generated/prisma/enums";

/** Who acts: a signed-in person (the browser's session) ... */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** The scopes an API key can have (Settings → API keys, the REST doors). */
export const API_KEY_SCOPES = [ApiKeyScope.post_entry_events, ApiKeyScope.post_conversions] as const;
export type TApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** ... or a workspace's API key, as the REST doors authenticated it. */
export interface AuthenticatedKey {
  id: string;
  workspaceId: string;
  name: string;
  scopes: TApiKeyScope[];
}
