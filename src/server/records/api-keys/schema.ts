import { z } from "zod";
import { API_KEY_SCOPES, type TApiKeyScope } from "@/server/ground/access/principals";

export const ZApiKeyScope = z.enum(API_KEY_SCOPES);

/** What each scope allows, in words (Settings, docs). */
export const scopeDescriptions: Record<TApiKeyScope, string> = {
  post_entry_events: "Post entry events to live API-entry campaigns and read the status of the events it posted.",
  post_conversions: "Report conversions against the sid of a printed response link.",
};

export const ZCreateApiKeyInput = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(80, "A key name has at most 80 characters."),
  scopes: z.array(ZApiKeyScope).min(1, "Choose at least one scope.").max(API_KEY_SCOPES.length),
});

export const ZApiKeyIdInput = z.object({ keyId: z.string().min(1).max(64) });
