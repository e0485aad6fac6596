import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "@/generated/prisma/client";
import type { DemoSummary } from "@/server/programme/demo/seed";
import { approveAuthorization, hashToken, validateAuthorizeRequest } from "@/server/records/oauth/authorize";
import { registerClient } from "@/server/records/oauth/clients";
import { mcpResource } from "@/server/records/oauth/config";
import type { TMcpScope } from "@/server/records/oauth/scopes";
import { tokenRequest } from "@/server/records/oauth/tokens";

export type TestAgents = Record<"acme" | "globex", { full: string; readOnly: string }>;

/** Where the test agents say they listen (nothing does: their codes are exchanged in-process). */
export const TEST_AGENT_REDIRECT = "http://127.0.0.1:47914/oauth/callback";
const REDIRECT = TEST_AGENT_REDIRECT;

/**
 * An agent access token for a workspace, made by the service's own registration, approval (as the
 * owner) and token exchange, then made to last the run (access tokens live 15 minutes; a run can
 * take longer). For the suites that call /api/mcp without the browser's consent dance.
 */
export async function agentToken(
  prisma: PrismaClient,
  p: { base: string; workspaceId: string; ownerEmail: string; name: string; scopes: TMcpScope[] },
): Promise<string> {
  const owner = await prisma.user.findUniqueOrThrow({ where: { email: p.ownerEmail } });
  const client = await registerClient(prisma, { client_name: p.name, redirect_uris: [REDIRECT] });
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const auth = await validateAuthorizeRequest(prisma, p.base, {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: p.scopes.join(" "),
    resource: mcpResource(p.base),
  });
  const { code } = await approveAuthorization(prisma, {
    auth,
    workspaceId: p.workspaceId,
    user: { id: owner.id, email: owner.email },
  });
  const tokens = await tokenRequest(prisma, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: client.client_id,
  });
  await prisma.oAuthToken.update({
    where: { hash: hashToken(tokens.access_token) },
    data: { expiresAt: new Date(Date.now() + 12 * 3600_000) },
  });
  return tokens.access_token;
}

export const FULL_AGENT_SCOPES: TMcpScope[] = ["workspace:read", "campaigns:write", "entry_events:write"];

/** A full and a read-only agent for each demo workspace. */
export async function createTestAgents(prisma: PrismaClient, demo: DemoSummary, base: string): Promise<TestAgents> {
  const out = {} as TestAgents;
  for (const [handle, ws] of Object.entries(demo.workspaces) as [
    "acme" | "globex",
    DemoSummary["workspaces"]["acme"],
  ][]) {
    const of = (name: string, scopes: TMcpScope[]) =>
      agentToken(prisma, { base, workspaceId: ws.id, ownerEmail: ws.owner.email, name, scopes });
    out[handle] = {
      full: await of("e2e agent", FULL_AGENT_SCOPES),
      readOnly: await of("e2e read-only agent", ["workspace:read"]),
    };
  }
  return out;
}
