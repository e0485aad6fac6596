/** Next.js calls register() once per server process before it serves requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { bootServer } = await import("@/server/platform/boot");
  await bootServer();
}
