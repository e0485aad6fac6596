import { publicProcedure, router } from "@/server/trpc";
import { ZSignUpInput } from "@/server/workspaces/schema";
import { signUp } from "./service";

export const authRouter = router({
  /** Creates a person and their first workspace (audit plan); the browser then signs in. */
  signUp: publicProcedure.input(ZSignUpInput).mutation(({ ctx, input }) => signUp(ctx.db, input)),
});
