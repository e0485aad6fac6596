import { z } from "zod";
import { router, signedInProcedure } from "@/server/ground/trpc";
import { NOTIFICATION_KINDS } from "./notifications";

/** What each notification is, as Settings → Notifications lists it. */
const DESCRIPTIONS: Record<(typeof NOTIFICATION_KINDS)[number], { label: string; description: string }> = {
  card_waiting: {
    label: "A card waits for my decision",
    description: "A confirmation card I may accept (within my approval limit) is waiting.",
  },
  campaign_budget_stopped: {
    label: "A campaign spent its budget",
    description: "A live campaign skips new entries because its budget has no room left.",
  },
  vendor_connection_failed: {
    label: "A connection failed",
    description: "A print vendor or the CRM refused the workspace's saved credentials.",
  },
  weekly_summary: {
    label: "Weekly summary",
    description: "Each workspace's week: pieces mailed, responses, spend and lift.",
  },
};

const ZNotificationKind = z.enum(NOTIFICATION_KINDS, "Not a notification: use one of the kinds listed.");

/** A person's own notification emails (they apply in every workspace of theirs). */
export const notificationsRouter = router({
  settings: signedInProcedure.query(async ({ ctx }) => {
    const user = await ctx.db.user.findUniqueOrThrow({
      where: { id: ctx.user.id },
      select: { notificationsOff: true },
    });
    return NOTIFICATION_KINDS.map((kind) => ({
      kind,
      ...DESCRIPTIONS[kind],
      on: !user.notificationsOff.includes(kind),
    }));
  }),
  update: signedInProcedure
    .input(z.object({ kind: ZNotificationKind, on: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const user = await ctx.db.user.findUniqueOrThrow({
        where: { id: ctx.user.id },
        select: { notificationsOff: true },
      });
      const off = new Set(user.notificationsOff);
      if (input.on) off.delete(input.kind);
      else off.add(input.kind);
      await ctx.db.user.update({ where: { id: ctx.user.id }, data: { notificationsOff: [...off] } });
      return { kind: input.kind, on: input.on };
    }),
});
