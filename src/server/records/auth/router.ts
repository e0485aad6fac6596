import { AppError } from "@/server/ground/errors";
import { clientAddress } from "@/server/ground/http/client-address";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consume, consumeAll, releaseAll } from "@/server/ground/rate-limits/service";
import { waitText } from "@/server/ground/rate-limits/wait-text";
import { publicProcedure, router, signedInProcedure } from "@/server/ground/trpc";
import {
  ZRequestPasswordResetInput,
  ZResetPasswordInput,
  ZSignUpInput,
  ZVerifyEmailInput,
} from "@/server/records/auth/schema";
import { resendVerificationEmail, verifyEmail } from "./email-verification";
import { requestPasswordReset, resetPassword } from "./password-reset";
import { signUp } from "./service";

const refuse = (sentence: string, resetSeconds: number) =>
  new AppError("rate_limited", `${sentence} Try again in ${waitText(resetSeconds)}.`, {
    headers: { "Retry-After": String(resetSeconds) },
  });

export const authRouter = router({
  /** Creates a person and their first workspace (audit plan); the browser then signs in. Limited per client address. */
  signUp: publicProcedure.input(ZSignUpInput).mutation(async ({ ctx, input }) => {
    const decision = await consume(ctx.db, `sign-up:${clientAddress(ctx.headers)}`, LIMITS.signUpPerIp);
    if (!decision.allowed) throw refuse("Too many accounts were created from your network.", decision.resetSeconds);
    return signUp(ctx.db, input);
  }),

  /**
   * Emails a link to choose a new password, to a known address only; the answer is the same for any
   * address. Limited per client address; past the limit for one email it answers the same and sends nothing.
   */
  requestPasswordReset: publicProcedure.input(ZRequestPasswordResetInput).mutation(async ({ ctx, input }) => {
    const perAddress = await consume(
      ctx.db,
      `password-reset-request:${clientAddress(ctx.headers)}`,
      LIMITS.passwordResetRequestPerIp,
    );
    if (!perAddress.allowed)
      throw refuse("Too many password resets were asked for from your network.", perAddress.resetSeconds);
    const perEmail = await consume(
      ctx.db,
      `password-reset-request-email:${input.email}`,
      LIMITS.passwordResetRequestPerEmail,
    );
    return requestPasswordReset(ctx.db, input.email, { quiet: !perEmail.allowed });
  }),

  /** Sets a new password from a reset link (single use, one hour); ends the person's other sessions. */
  resetPassword: publicProcedure.input(ZResetPasswordInput).mutation(async ({ ctx, input }) => {
    const now = new Date();
    const bucket = `password-reset:${clientAddress(ctx.headers)}`;
    const decision = await consumeAll(ctx.db, bucket, LIMITS.passwordResetPerIp, now);
    if (!decision.allowed) throw refuse("Too many password reset attempts from your network.", decision.resetSeconds);
    const done = await resetPassword(ctx.db, input.token, input.password, now);
    await releaseAll(ctx.db, bucket, LIMITS.passwordResetPerIp, now);
    return done;
  }),

  /** Marks the address verified from the link emailed at sign-up (single use). */
  verifyEmail: publicProcedure.input(ZVerifyEmailInput).mutation(({ ctx, input }) => verifyEmail(ctx.db, input.token)),

  /** Whether the signed-in person's address is verified (the workspace banner). */
  emailStatus: signedInProcedure.query(async ({ ctx }) => {
    const user = await ctx.db.user.findUniqueOrThrow({
      where: { id: ctx.user.id },
      select: { email: true, emailVerifiedAt: true },
    });
    return { email: user.email, verified: user.emailVerifiedAt != null };
  }),

  /** Sends the signed-in person a new verification link (earlier ones stop working). */
  resendVerification: signedInProcedure.mutation(async ({ ctx }) => {
    const decision = await consume(ctx.db, `verification-resend:${ctx.user.id}`, LIMITS.verificationResendPerUser);
    if (!decision.allowed) throw refuse("Too many verification emails were sent to you.", decision.resetSeconds);
    return resendVerificationEmail(ctx.db, ctx.user.id);
  }),
});
