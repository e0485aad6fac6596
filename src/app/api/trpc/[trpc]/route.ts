import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createRequestContext } from "@/server/doors/context";
import { appRouter } from "@/server/doors/routers";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createRequestContext(req.headers),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path ?? "?"} failed`, error.cause ?? error);
    },
  });

export { handler as GET, handler as POST };
