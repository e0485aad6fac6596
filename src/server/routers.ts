import { apiKeyRouter } from "./api-keys/router";
import { audienceRouter } from "./audiences/router";
import { authRouter } from "./auth/router";
import { campaignRouter } from "./campaigns/router";
import { confirmationRouter } from "./confirmations/router";
import { fulfilmentRouter } from "./fulfilment/router";
import { resultsRouter } from "./holdouts/router";
import { connectedAgentsRouter } from "./oauth/router";
import { createCallerFactory, router } from "./trpc";
import { workspaceRouter } from "./workspaces/router";

/** The owner UI's tRPC API (internal: not part of the published REST API). */
export const appRouter = router({
  auth: authRouter,
  apiKey: apiKeyRouter,
  campaign: campaignRouter,
  audience: audienceRouter,
  fulfilment: fulfilmentRouter,
  confirmation: confirmationRouter,
  results: resultsRouter,
  connectedAgents: connectedAgentsRouter,
  workspace: workspaceRouter,
});

export type AppRouter = typeof appRouter;
export const createAppCaller = createCallerFactory(appRouter);
