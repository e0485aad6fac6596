import { ConfigError, type DatabaseTarget, redactUrl } from "./config";

const networkCodes: Record<string, string> = {
  ECONNREFUSED: "the connection was refused",
  ENOTFOUND: "the host was not found",
  EAI_AGAIN: "the host name could not be resolved",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  ECONNRESET: "the connection was reset",
};

function findCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const e = error as { code?: unknown; cause?: unknown; message?: unknown; errors?: unknown[] };
  if (typeof e.code === "string" && (networkCodes[e.code] || /^(28|3D)/.test(e.code))) return e.code;
  if (typeof e.message === "string") {
    const m = e.message.match(/\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ECONNRESET)\b/);
    if (m) return m[1];
    if (/timeout exceeded when trying to connect/i.test(e.message)) return "ETIMEDOUT";
    if (/can't reach database server/i.test(e.message)) return "ECONNREFUSED";
    if (/database .* does not exist/i.test(e.message)) return "3D000";
    if (/password authentication failed|no pg_hba\.conf entry/i.test(e.message)) return "28P01";
  }
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const code = findCode(inner, depth + 1);
    if (code) return code;
  }
  return undefined;
}

/**
 * One sentence for a person when the server cannot start: a bad setting or an unreachable
 * database. Returns null for anything else (a real bug, which keeps its stack trace).
 */
export function describeStartupError(error: unknown, target?: DatabaseTarget): string | null {
  if (error instanceof ConfigError) return error.message;
  if (target?.kind !== "postgres") return null;
  const code = findCode(error);
  if (!code) return null;
  const where = redactUrl(target.url);
  if (networkCodes[code])
    return `Cannot reach the PostgreSQL database at ${where}: ${networkCodes[code]}; check DATABASE_URL.`;
  if (code === "3D000")
    return `The database named in DATABASE_URL (${where}) does not exist; create it or fix the URL.`;
  return `PostgreSQL refused the credentials in DATABASE_URL (${where}); check the user and password.`;
}
