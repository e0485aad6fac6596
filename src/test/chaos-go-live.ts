/**
 * For the go-live crash test: accepts a go-live card (the card's transaction enters the whole
 * audience), or with CHAOS_JOINERS adds contacts to the audience in batches (the trigger enters
 * them). Prints "ready" before it starts; the test SIGKILLs it at a random moment.
 */
import { decideCard } from "@/server/programme/confirmations/service";
import { openDatabase } from "@/server/ground/platform/database";

const database = openDatabase({ kind: "postgres", url: process.env.DATABASE_URL! });
const prisma = database.prisma;
const workspaceId = process.env.CHAOS_WORKSPACE_ID!;
process.stdout.write("ready\n");
if (process.env.CHAOS_JOINERS) {
  // Adds the contacts listed in the audience's pending table, 200 at a time, each batch one statement.
  const { audienceId } = JSON.parse(process.env.CHAOS_JOINERS) as { audienceId: string };
  for (;;) {
    const added = await prisma.$executeRaw`
      INSERT INTO "AudienceMember" ("audienceId", "contactId", "workspaceId")
      SELECT ${audienceId}, c.id, c."workspaceId" FROM "Contact" c
       WHERE c."workspaceId" = ${workspaceId} AND c."lastName" = 'Joiner'
         AND NOT EXISTS (SELECT 1 FROM "AudienceMember" m WHERE m."audienceId" = ${audienceId} AND m."contactId" = c.id)
       ORDER BY c.id LIMIT 200
      ON CONFLICT DO NOTHING`;
    if (added === 0) break;
  }
} else {
  await decideCard(prisma, {
    workspaceId,
    cardId: process.env.CHAOS_CARD_ID!,
    decision: "accept",
    user: { id: process.env.CHAOS_USER_ID!, email: "owner@example.test" },
  });
}
process.stdout.write("done\n");
await database.close();
