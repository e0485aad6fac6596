import type { SessionUser } from "@/server/ground/access/principals";
import type { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import { serviceSecret } from "@/server/ground/platform/service-secrets";
import { listWorkspacesOf } from "@/server/records/workspaces/service";
import {
  AUTHORIZE_PARAMS,
  type AuthorizeParams,
  AuthorizeErrorPage,
  AuthorizeRedirectError,
  approveAuthorization,
  clientApprovedBy,
  consentToken,
  consentTokenMatches,
  redirectBack,
  type ValidAuthorization,
  validateAuthorizeRequest,
} from "./authorize";
import { mcpScopeDescriptions, type TMcpScope } from "./scopes";

const CONSENT_SECRET = "oauth-consent-csrf";
/** The consent form's checkbox per scope is named this plus the scope ("grant_scope:workspace:read"). */
export const GRANT_SCOPE_FIELD = "grant_scope:";

export function pickAuthorizeParams(raw: Record<string, unknown>): AuthorizeParams {
  const p: AuthorizeParams = {};
  for (const k of AUTHORIZE_PARAMS) if (typeof raw[k] === "string") p[k] = raw[k] as string;
  return p;
}

type ConsentContext =
  | { kind: "error"; message: string; location?: string }
  | { kind: "sign-in" }
  | { kind: "redirect"; location: string }
  | {
      kind: "consent";
      auth: ValidAuthorization;
      workspaces: { id: string; name: string; plan: string }[];
      firstTime: boolean;
      scopes: { name: TMcpScope; description: string }[];
      hidden: Record<string, string>;
    };

async function validate(
  db: Db,
  base: string,
  params: AuthorizeParams,
  user: SessionUser | null,
): Promise<
  | { auth: ValidAuthorization }
  | { kind: "error"; message: string; location?: string }
  | { kind: "redirect"; location: string }
> {
  try {
    return { auth: await validateAuthorizeRequest(db, base, params) };
  } catch (error) {
    if (error instanceof AuthorizeRedirectError) {
      const location = redirectBack(error.redirectUri, {
        error: error.error,
        error_description: error.description,
        state: error.state,
        iss: base,
      });
      // RFC 9700 section 4.11.2: no automatic redirect to a client the person has not approved (an open redirect otherwise).
      if (!(await clientApprovedBy(db, error.clientRowId, user?.id)))
        return { kind: "error", message: error.description, location };
      return { kind: "redirect", location };
    }
    if (error instanceof AuthorizeErrorPage) return { kind: "error", message: error.message };
    throw error;
  }
}

/**
 * Everything the consent page shows, or where to send the browser instead. The request is checked
 * before anyone signs in, so a bad link never asks for a password.
 */
export async function consentContext(
  db: Db,
  base: string,
  user: SessionUser | null,
  raw: Record<string, unknown>,
): Promise<ConsentContext> {
  const params = pickAuthorizeParams(raw);
  const checked = await validate(db, base, params, user);
  if (!("auth" in checked)) return checked;
  if (!user) return { kind: "sign-in" };
  const { auth } = checked;
  const workspaces = (await listWorkspacesOf(db, user.id)).filter((m) => m.role === "owner").map((m) => m.workspace);
  if (workspaces.length === 0)
    return { kind: "error", message: "You own no workspace, so there is nothing an agent could be connected to." };
  const csrf = consentToken(await serviceSecret(db, CONSENT_SECRET), user.id, params);
  const hidden: Record<string, string> = { csrf };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) hidden[k] = v;
  return {
    kind: "consent",
    auth,
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, plan: w.plan })),
    firstTime: !(await clientApprovedBy(db, auth.client.id, user.id)),
    scopes: auth.scopes.map((s) => ({ name: s, description: mcpScopeDescriptions[s] })),
    hidden,
  };
}

/**
 * The consent form's POST: same person (csrf token bound to the session user and the request),
 * the request re-validated, then a code (approve) or access_denied (deny) sent back to the client.
 */
export async function decideConsent(
  db: PrismaClient,
  base: string,
  user: SessionUser,
  form: Record<string, string>,
): Promise<{ status: number; location?: string; message?: string }> {
  const params = pickAuthorizeParams(form);
  if (!consentTokenMatches(await serviceSecret(db, CONSENT_SECRET), user.id, params, form.csrf ?? null)) {
    return {
      status: 403,
      message:
        "This consent form has expired or was not sent from this site. Start the connection again from your agent.",
    };
  }
  const checked = await validate(db, base, params, user);
  if (!("auth" in checked))
    return checked.kind === "redirect"
      ? { status: 303, location: checked.location }
      : { status: 400, message: checked.message };
  const { auth } = checked;
  // The person may grant less than the client asked for: only the scopes ticked on the form.
  const granted = auth.scopes.filter((s) => [s, "on"].includes(form[`${GRANT_SCOPE_FIELD}${s}`] ?? ""));
  if (form.decision === "approve" && granted.length === 0) {
    return {
      status: 400,
      message: "Choose at least one thing the agent may do, or deny it. Start the connection again from your agent.",
    };
  }
  if (form.decision !== "approve") {
    return {
      status: 303,
      location: redirectBack(auth.redirectUri, {
        error: "access_denied",
        error_description: "The workspace owner denied access.",
        state: auth.state,
        iss: base,
      }),
    };
  }
  try {
    const workspaceId = form.workspaceId ?? "";
    if (workspaceId.length > 64) return { status: 404, message: "No such workspace." };
    const { code } = await db.$transaction((tx) =>
      approveAuthorization(tx, { auth: { ...auth, scopes: granted }, workspaceId, user }),
    );
    return { status: 303, location: redirectBack(auth.redirectUri, { code, state: auth.state, iss: base }) };
  } catch (error) {
    if (error instanceof AuthorizeErrorPage) return { status: 403, message: error.message };
    if ((error as { code?: string }).code === "not_found") return { status: 404, message: "No such workspace." };
    throw error;
  }
}
