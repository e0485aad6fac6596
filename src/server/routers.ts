import { apiKeyRouter } from "./api-keys/router";
import { audienceRouter } from "./audiences/router";
import { authRouter } from "./auth/router";
import { brandRouter } from "./brand/router";
import { campaignRouter } from "./campaigns/router";
import { confirmationRouter } from "./confirmations/router";
import { crmRouter } from "./crm/router";
import { designRouter } from "./designs/router";
import { draftRouter } from "./drafts/router";
import { accountRouter } from "./contacts/accounts-router";
import { auditRouter } from "./mailability/router";
import { contactRouter } from "./contacts/router";
import { suppressionRouter } from "./contacts/suppressions-router";
import { fulfilmentRouter } from "./fulfilment/router";
import { resultsRouter } from "./holdouts/router";
import { contactImportRouter } from "./imports/router";
import { jobRouter } from "./jobs/router";
import { connectedAgentsRouter } from "./oauth/router";
import { planRouter } from "./plans/router";
import { responseRouter } from "./responses/router";
import { contactErasureRouter } from "./erasure/router";
import { createCallerFactory, mergeRouters, router } from "./trpc";
import { webhooksRouter } from "./webhooks/router";
import { workspaceRouter } from "./workspaces/router";

/** The owner UI's tRPC API (internal: not part of the published REST API). */
export const appRouter = router({
  auth: authRouter,
  apiKey: apiKeyRouter,
  campaign: campaignRouter,
  audience: audienceRouter,
  contact: mergeRouters(contactRouter, contactErasureRouter),
  account: accountRouter,
  suppression: suppressionRouter,
  contactImport: contactImportRouter,
  fulfilment: fulfilmentRouter,
  confirmation: confirmationRouter,
  results: resultsRouter,
  job: jobRouter,
  plan: planRouter,
  connectedAgents: connectedAgentsRouter,
  workspace: workspaceRouter,
  brand: brandRouter,
  design: designRouter,
  draft: draftRouter,
  mailability: auditRouter,
  crm: crmRouter,
  response: responseRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createAppCaller = createCallerFactory(appRouter);
