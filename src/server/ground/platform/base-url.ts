import type { Env } from "./config";

/**
 * The service's public base address ({base_url} in the spec): NEXTAUTH_URL when set, else
 * http://localhost:$PORT. Published documents, problem types and response links use it.
 */
export function baseUrl(env: Env = process.env): string {
  const configured = env.NEXTAUTH_URL?.trim();
  return (configured || `http://localhost:${env.PORT?.trim() || 3000}`).replace(/\/+$/, "");
}
