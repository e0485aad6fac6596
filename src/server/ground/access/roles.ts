import type { MembershipRole } from "@/generated/prisma/enums";
import { AppError } from "@/server/ground/errors";

/** The roles, most powerful first. Each may do everything the roles after it may. */
export const ROLES = ["owner", "admin", "approver", "member", "viewer"] as const satisfies readonly MembershipRole[];
export type TRole = (typeof ROLES)[number];

/**
 * The closed list of things a workspace's people do, and who may do each. Every workspace-scoped
 * tRPC procedure, MCP tool and file route names one of these (see procedure-actions.ts).
 */
export const ACTION_ROLES = {
  /** See anything in the workspace. */
  read: ["owner", "admin", "approver", "member", "viewer"],
  /** Prepare: contacts, imports, audits, brand, designs, drafts, draft campaigns. */
  prepare: ["owner", "admin", "approver", "member"],
  /** Ask for go-live, budget or approval: makes a confirmation card that someone else accepts. */
  request: ["owner", "admin", "approver", "member"],
  /** Accept or decline confirmation cards, and take the steps they stand for (go live, set a budget). */
  decide: ["owner", "admin", "approver"],
  /** Members and invitations, printers, API keys, webhooks, CRM, email, revoking connected agents, erasure. */
  administer: ["owner", "admin"],
  /** Plan and billing, and ownership transfer. */
  own: ["owner"],
} as const satisfies Record<string, readonly TRole[]>;
export type TAction = keyof typeof ACTION_ROLES;

const ROLE_ARTICLE: Record<TRole, string> = {
  owner: "the owner",
  admin: "an admin",
  approver: "an approver",
  member: "a member",
  viewer: "a viewer",
};

export function roleAllows(role: TRole, action: TAction): boolean {
  return (ACTION_ROLES[action] as readonly TRole[]).includes(role);
}

/** The least role that may do `action`, e.g. "approver" for decide. */
export function leastRoleFor(action: TAction): TRole {
  const allowed = ACTION_ROLES[action] as readonly TRole[];
  return allowed[allowed.length - 1];
}

/** The sentence a refused person (or agent) reads: the role it needs, and the role they have. */
export function forbiddenSentence(role: TRole, action: TAction, subject: "you" | "agent" = "you"): string {
  const least = leastRoleFor(action);
  const needs =
    least === "owner"
      ? "Only the workspace owner can do this"
      : `This needs the ${least} role or higher (${(ACTION_ROLES[action] as readonly TRole[]).join(", ")})`;
  const who = subject === "agent" ? "the person who connected this agent is" : "you are";
  return `${needs}; ${who} ${ROLE_ARTICLE[role]} in this workspace.`;
}

/** Refuses (403) an action the role may not take, with the sentence above. */
export function requireRole(ctx: { role: TRole }, action: TAction, subject: "you" | "agent" = "you"): void {
  if (!roleAllows(ctx.role, action)) throw new AppError("forbidden", forbiddenSentence(ctx.role, action, subject));
}
