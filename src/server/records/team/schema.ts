import { z } from "zod";
import { ZEmail } from "@/server/records/workspaces/schema";

const ZUserId = z.string().min(1).max(64);

/** Roles an invitation or a role change can give: the owner's comes only by transferring ownership. */
export const GRANTABLE_ROLES = ["admin", "approver", "member", "viewer"] as const;
const ZGrantableRole = z.enum(GRANTABLE_ROLES, {
  error: `role must be one of ${GRANTABLE_ROLES.join(", ")} (the owner's role comes only by transferring ownership).`,
});

const ZApprovalLimit = z
  .number()
  .int("An approval limit is a whole number of cents.")
  .min(0, "An approval limit is at least 0 cents.")
  .max(100_000_000_00, "An approval limit is at most $100,000,000.00.")
  .nullish();

export const ZInviteInput = z.object({
  email: ZEmail,
  role: ZGrantableRole,
  /** Only for an approver: their limit per card, in cents (none: no limit). */
  approvalLimitCents: ZApprovalLimit,
});

export const ZChangeRoleInput = z.object({
  userId: ZUserId,
  role: ZGrantableRole,
  approvalLimitCents: ZApprovalLimit,
});

export const ZRemoveInput = z.object({
  userId: ZUserId,
  /** The API keys the person created: revoked (the default), or kept working as the owner's. */
  keys: z.enum(["revoke", "hand_to_owner"]).default("revoke"),
});

export const ZRevokeInviteInput = z.object({ invitationId: z.string().min(1).max(64) });

export const ZTransferInput = z.object({ userId: ZUserId });

/** An invitation token as it comes from a link: bounded before it is hashed. */
export const ZInviteToken = z
  .string()
  .trim()
  .min(1, "The invitation link has no token.")
  .max(128, "This invitation link is not valid.");
