import { type LoggingLevel, LoggingLevelSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TJobView } from "@/server/records/jobs/schema";

/**
 * MCP logging: the client names the least severe level it wants (logging/setLevel, kept on its
 * grant, since the server is stateless); the long jobs (imports, audits, drafts) then send log
 * notifications about their progress and their end, within the call that starts or follows them.
 * Until a client sets a level, nothing is sent.
 */
export const MCP_LOG_LEVELS = LoggingLevelSchema.options;

/** Sends one log notification for the call being answered, if its level is at least the one the client set. */
export type McpLog = (level: LoggingLevel, data: { message: string } & Record<string, unknown>) => Promise<void>;

export const parseLogLevel = (value: unknown): LoggingLevel | null => {
  const parsed = LoggingLevelSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** Whether a message at `level` goes to a client that set `wanted` (none until it sets one). */
export const logPasses = (wanted: LoggingLevel | null, level: LoggingLevel) =>
  wanted !== null && MCP_LOG_LEVELS.indexOf(level) >= MCP_LOG_LEVELS.indexOf(wanted);

/** The tools whose calls may send log notifications: those that start or follow a long job. */
export const LOGGING_TOOLS = new Set(["contacts_import", "imports_get", "audits_run", "audits_get", "drafts_generate"]);

/** A long piece of work as a tool sees it: its status, its progress (null before a job has it), why it failed. */
export interface WorkState {
  status: string;
  progress: TJobView["progress"] | null;
  error: string | null;
}

/**
 * One notification about a long job, as the call sees it: its progress while it waits or runs
 * (info), its end (notice when it succeeded, error when it failed, warning when cancelled).
 */
export async function logWork(
  log: McpLog | undefined,
  what: string,
  work: WorkState,
  ids: Record<string, string>,
  /** What the finished work found, in words (replaces the count of units done). */
  outcome?: string,
) {
  if (!log) return;
  const p = work.progress;
  const counted = outcome ? ` ${outcome}` : p ? ` ${p.done}${p.total !== null ? ` of ${p.total}` : ""} ${p.unit}` : "";
  const data = { ...ids, status: work.status, progress: p };
  if (work.status === "succeeded")
    return log("notice", { message: `${what} finished${counted && `:${counted}`}.`, ...data });
  if (work.status === "failed")
    return log("error", { message: `${what} failed: ${work.error ?? "no reason given."}`, ...data });
  if (work.status === "cancelled")
    return log("warning", { message: `${what} was cancelled${counted ? ` after${counted}` : ""}.`, ...data });
  const percent = p?.percent != null ? ` (${Math.round(p.percent)}%)` : "";
  const left = p?.secondsLeft != null ? `, about ${p.secondsLeft} s left` : "";
  return log("info", {
    message: `${what} ${work.status.replace("_", " ")}:${counted || " not started"}${percent}${left}.`,
    ...data,
  });
}
