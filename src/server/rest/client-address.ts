/** The client's address as the proxy in front of the service reports it (rate limits for unauthenticated calls). */
export function clientAddress(req: Request): string {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || req.headers.get("x-real-ip") || "unknown";
}
