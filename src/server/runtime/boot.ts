import fs from "node:fs";
import path from "node:path";
import { runDataBackfills } from "@/server/records/contacts/rekey";
import { type DemoSummary, seedDemo } from "@/server/programme/demo/seed";
import { billingAdapter } from "@/server/programme/plans/billing";
import { startWorkers } from "./workers";
import { baseUrl } from "@/server/ground/platform/base-url";
import { workerSettings } from "./worker-settings";
import { ConfigError, dataFolder, databaseTarget, describeTarget } from "@/server/ground/platform/config";
import { applyMigrations } from "@/server/ground/platform/migrate";
import { getDatabase } from "@/server/ground/platform/process-database";
import { serviceSecret } from "@/server/ground/platform/service-secrets";
import { describeStartupError } from "@/server/ground/platform/startup-error";
import { describeEmailSettings, emailSettings } from "@/server/records/email/settings";

/**
 * Runs once when a server process starts, before it answers requests: checks the configuration,
 * applies pending migrations, settles the session secret and base URL, and on an empty embedded
 * database seeds the demo and prints how to sign in. A configuration problem stops the process
 * with one sentence.
 */
export async function bootServer(): Promise<void> {
  let target: ReturnType<typeof databaseTarget> | undefined;
  try {
    target = databaseTarget();
    // The background work's sizes are checked here, whichever process will run that work.
    const settings = workerSettings();
    const database = getDatabase();
    const applied = await applyMigrations(database.migrationAdapter());
    log(`Database: ${describeTarget(target)}${applied.length ? `; applied ${applied.join(", ")}` : ""}`);
    await runDataBackfills(database.prisma, log);

    // An incomplete Stripe configuration stops the start with one sentence, not the first checkout.
    const billing = billingAdapter();
    log(
      billing.provider === "stripe"
        ? `Billing: Stripe (webhook endpoint ${baseUrl()}/api/webhooks/stripe)`
        : "Billing: sandbox, no card is charged (set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID for Stripe)",
    );

    // A bad SMTP_URL or EMAIL_FROM stops the start with one sentence, not the first message.
    log(`Email: ${describeEmailSettings(emailSettings())}`);

    process.env.NEXTAUTH_URL = baseUrl();
    if (!process.env.NEXTAUTH_SECRET?.trim()) {
      process.env.NEXTAUTH_SECRET = await serviceSecret(database.prisma, "nextauth-secret");
    } else if (process.env.NEXTAUTH_SECRET.trim().length < 32) {
      throw new ConfigError(
        "NEXTAUTH_SECRET must be at least 32 characters; generate one with `openssl rand -base64 32`.",
      );
    }

    if (shouldSeedDemo(target.kind) && (await database.prisma.workspace.count()) === 0) {
      const demo = await seedDemo(database.prisma, log);
      printSignIn(demo, target.kind === "embedded" ? writeDemoFile(demo) : null);
    }

    if (workerInline()) {
      const workers = startWorkers(database.prisma, settings);
      process.once("SIGTERM", () => void workers.stop());
      log("Lifecycle and job workers running in this process (WORKER=off to leave the work to `npm run worker`).");
    }
  } catch (error) {
    const sentence = describeStartupError(error, target);
    if (!sentence) throw error;
    console.error(`\nThe server cannot start: ${sentence}\n`);
    process.exit(1);
  }
}

/**
 * The background work runs in this process unless WORKER=off (app instances beside dedicated
 * `npm run worker` processes) or WORKER=process (`npm start` on PostgreSQL started a worker process
 * beside this server: scripts/worker-process.ts).
 */
function workerInline(): boolean {
  return !["off", "false", "0", "process"].includes(process.env.WORKER?.trim().toLowerCase() ?? "");
}

function shouldSeedDemo(kind: string): boolean {
  const setting = process.env.SEED_DEMO?.trim().toLowerCase();
  if (setting === "false" || setting === "0" || setting === "off") return false;
  if (setting === "true" || setting === "1" || setting === "on") return true;
  return kind === "embedded";
}

function log(line: string) {
  console.log(`[boot] ${line}`);
}

/** The demo's ids and API keys, beside the embedded data (readable by this user only). */
function writeDemoFile(demo: DemoSummary): string {
  const file = path.join(dataFolder(), "demo.json");
  fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return file;
}

function printSignIn(demo: DemoSummary, demoFile: string | null) {
  const rows = Object.values(demo.workspaces).map((w) => [
    `${w.name} (${w.plan} plan)`,
    w.owner.email,
    `password: ${w.owner.password}`,
  ]);
  const width = (i: number) => Math.max(...rows.map((r) => r[i].length));
  const lines = [
    "",
    `Demo data is ready. Sign in at ${baseUrl()}/sign-in with:`,
    ...rows.map((r) => `  ${r[0].padEnd(width(0))}   ${r[1].padEnd(width(1))}   ${r[2]}`),
    demoFile
      ? `The demo's API keys, campaign and contact ids are in ${demoFile}.`
      : "The demo's API keys, campaign and contact ids: npm run seed:demo (prints them as JSON; safe to run again).",
    "",
  ];
  console.log(lines.join("\n"));
}
