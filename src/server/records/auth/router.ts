import { AppError } from "@/server/ground/errors";
import { clientAddress } from "@/server/ground/http/client-address";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consume } from "@/server/ground/rate-limits/service";
import { waitText } from "@/server/ground/rate-limits/wait-text";
import { publicProcedure, router } from "@/server/ground/trpc";
import { ZSignUpInput } from "@/server/records/auth/schema";
import { signUp } from "./service";

export const authRouter = router({
  /** Creates a person and their first workspace (audit plan); the browser then signs in. Limited per client address. */
  signUp: publicProcedure.input(ZSignUpInput).mutation(async ({ ctx, input }) => {
    const decision = await consume(ctx.db, `sign-up:${clientAddress(ctx.headers)}`, LIMITS.signUpPerIp);
    if (!decision.allowed)
      throw new AppError(
        "rate_limited",
        `Too many accounts were created from your network. Try again in ${waitText(decision.resetSeconds)}.`,
        { headers: { "Retry-After": String(decision.resetSeconds) } },
      );
    return signUp(ctx.db, input);
  }),
});
