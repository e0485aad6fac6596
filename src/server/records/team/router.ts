import { z } from "zod";
import { ownerProcedure, publicProcedure, router, signedInProcedure } from "@/server/ground/trpc";
import { acceptInvitationIn, describeInvitation, inviteToWorkspace, revokeInvitation } from "./invitations";
import { changeRole, listTeam, removeMember, transferOwnership } from "./members";
import {
  ZChangeRoleInput,
  ZInviteInput,
  ZInviteToken,
  ZRemoveInput,
  ZRevokeInviteInput,
  ZTransferInput,
} from "./schema";

/** Settings → Team: the people of a workspace, their roles, and invitations (roles checked by procedure-actions.ts). */
export const teamRouter = router({
  /** The team, and who is asking (their role decides what the page lets them do). */
  members: ownerProcedure.query(async ({ ctx }) => ({
    ...(await listTeam(ctx.db, { workspaceId: ctx.workspaceId })),
    you: { userId: ctx.user.id, role: ctx.role },
  })),
  invite: ownerProcedure
    .input(ZInviteInput)
    .mutation(({ ctx, input }) =>
      inviteToWorkspace(ctx.db, { ...input, workspaceId: ctx.workspaceId, inviter: ctx.user, actor: ctx.actor }),
    ),
  revokeInvite: ownerProcedure
    .input(ZRevokeInviteInput)
    .mutation(({ ctx, input }) =>
      revokeInvitation(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor }),
    ),
  changeRole: ownerProcedure
    .input(ZChangeRoleInput)
    .mutation(({ ctx, input }) => changeRole(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  remove: ownerProcedure
    .input(ZRemoveInput)
    .mutation(({ ctx, input }) => removeMember(ctx.db, { ...input, workspaceId: ctx.workspaceId, actor: ctx.actor })),
  transferOwnership: ownerProcedure.input(ZTransferInput).mutation(({ ctx, input }) =>
    transferOwnership(ctx.db, {
      workspaceId: ctx.workspaceId,
      fromUserId: ctx.user.id,
      toUserId: input.userId,
      actor: ctx.actor,
    }),
  ),
  /** The invitation page: what the link is for, and whether it still works (nothing about the workspace beyond its name). */
  invitation: publicProcedure
    .input(z.object({ token: ZInviteToken }))
    .query(({ ctx, input }) => describeInvitation(ctx.db, input)),
  /** A signed-in person accepts an invitation sent to their address. */
  accept: signedInProcedure
    .input(z.object({ token: ZInviteToken }))
    .mutation(({ ctx, input }) =>
      ctx.db.$transaction((tx) => acceptInvitationIn(tx, { token: input.token, user: ctx.user })),
    ),
});
