import { z } from "zod";
import { ZContactId } from "@/server/records/contacts/schema";
import { ownerProcedure, router } from "@/server/ground/trpc";
import { eraseContact } from "./erase-contact";

/** The owner's Delete on the contact page (merged into the contact router by routers.ts). */
export const contactErasureRouter = router({
  delete: ownerProcedure
    .input(z.object({ contactId: ZContactId, suppress: z.boolean().default(false) }))
    .mutation(({ ctx, input }) =>
      eraseContact(ctx.db, {
        workspaceId: ctx.workspaceId,
        contactId: input.contactId,
        suppress: input.suppress,
        actor: ctx.actor,
      }),
    ),
});
