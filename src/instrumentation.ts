/** Next.js calls register() once per server process before it serves requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const registry = await import("@/server/runtime/door-registry");
  try {
    const { bootServer } = await import("@/server/runtime/boot");
    await bootServer();
    // For the production server (scripts/serve.ts), which answers /api/v1 and /api/tools itself.
    registry.publishDirectDoors((await import("@/server/runtime/direct-doors")).directDoors);
  } catch (error) {
    registry.failDirectDoors(error);
    throw error;
  }
}
