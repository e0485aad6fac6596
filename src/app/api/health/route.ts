import { getDb } from "@/server/ground/db";
import { checkHealth } from "@/server/programme/health/service";
import { SERVICE_VERSION } from "@/server/ground/platform/version";

export const dynamic = "force-dynamic";

/** GET /api/health: 200 {status, database, version, time} when the database answers, else 503 with the reason. */
export async function GET() {
  const report = await checkHealth(getDb(), SERVICE_VERSION);
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
