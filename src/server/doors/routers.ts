import { apiKeyRouter } from "../records/api-keys/router";
import { audienceRouter } from "../records/audiences/router";
import { authRouter } from "../records/auth/router";
import { brandRouter } from "../programme/brand/router";
import { campaignRouter } from "../programme/campaigns/router";
import { confirmationRouter } from "../programme/confirmations/router";
import { crmRouter } from "../programme/crm/router";
import { designRouter } from "../programme/designs/router";
import { draftRouter } from "../programme/drafts/router";
import { notificationsRouter } from "../records/email/notification-router";
import { emailRouter } from "../records/email/router";
import { accountRouter } from "../records/contacts/accounts-router";
import { auditRouter } from "../programme/mailability/router";
import { contactRouter } from "../records/contacts/router";
import { suppressionRouter } from "../records/contacts/suppressions-router";
import { fulfilmentRouter } from "../programme/fulfilment/router";
import { resultsRouter } from "../programme/holdouts/router";
import { contactImportRouter } from "../programme/imports/router";
import { jobRouter } from "../records/jobs/router";
import { connectedAgentsRouter } from "../records/oauth/router";
import { planRouter } from "../programme/plans/router";
import { responseRouter } from "../programme/responses/router";
import { contactErasureRouter } from "../programme/erasure/router";
import { createCallerFactory, mergeRouters, router } from "../ground/trpc";
import { webhooksRouter } from "../programme/webhooks/router";
import { workspaceRouter } from "../records/workspaces/router";
import { programmeHoldoutRouter } from "../programme/holdouts/programme-router";
import { teamRouter } from "../records/team/router";
import { activityRouter } from "../records/team/activity-router";

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
  workspace: mergeRouters(workspaceRouter, programmeHoldoutRouter),
  brand: brandRouter,
  design: designRouter,
  draft: draftRouter,
  mailability: auditRouter,
  crm: crmRouter,
  response: responseRouter,
  webhooks: webhooksRouter,
  email: emailRouter,
  team: teamRouter,
  activity: activityRouter,
  notifications: notificationsRouter,
});

export type AppRouter = typeof appRouter;
export const createAppCaller = createCallerFactory(appRouter);
