import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { LIMITS } from "@/server/ground/rate-limits/limits";
import { consume } from "@/server/ground/rate-limits/service";
import { waitText } from "@/server/ground/rate-limits/wait-text";
import { enqueueEmail } from "./outbox";
import { describeEmailSettings, emailSettings } from "./settings";
import { testEmail } from "./templates/test-email";

/** Queues a test message to the person asking, so they see the setup reach a real inbox. */
export async function sendTestEmail(
  db: Db,
  p: { workspaceId: string; user: { id: string; email: string; name: string }; actor: Actor },
) {
  const decision = await consume(db, `email-test:${p.workspaceId}`, LIMITS.emailTestPerWorkspace);
  if (!decision.allowed)
    throw new AppError(
      "rate_limited",
      `This workspace sent ${LIMITS.emailTestPerWorkspace.limit} test emails this hour. Try again in ${waitText(decision.resetSeconds)}.`,
      { headers: { "Retry-After": String(decision.resetSeconds) } },
    );
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { name: true } });
  const message = await enqueueEmail(db, {
    to: p.user.email,
    userId: p.user.id,
    workspaceId: p.workspaceId,
    ...testEmail({
      workspaceId: p.workspaceId,
      workspaceName: workspace.name,
      requestedBy: p.user.name || p.user.email,
      setup: describeEmailSettings(emailSettings()),
    }),
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "email.test_requested",
    message ? { type: "email", id: message.id } : undefined,
    {
      to: p.user.email,
    },
  );
  return { messageId: message?.id ?? null, to: p.user.email };
}
