import { AppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { LIMITS } from "@/server/rate-limits/limits";
import { consume } from "@/server/rate-limits/service";
import { waitText } from "@/server/rate-limits/wait-text";
import { publicProcedure, router } from "@/server/trpc";
import { ZSignUpInput } from "@/server/auth/schema";
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
