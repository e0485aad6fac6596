import type { TAction } from "./roles";

/**
 * What each workspace-scoped tRPC procedure does, by path: the one middleware that scopes a
 * procedure to a workspace checks the caller's role against this before the procedure runs. A
 * workspace-scoped procedure missing here is refused for everyone (and procedure-actions.test.ts
 * fails), so a new procedure cannot be forgotten.
 */
export const PROCEDURE_ACTIONS: Record<string, TAction> = {
  "apiKey.list": "read",
  "apiKey.example": "read",
  "apiKey.create": "administer",
  "apiKey.revoke": "administer",

  "campaign.list": "read",
  "campaign.get": "read",
  "campaign.create": "prepare",
  "campaign.update": "prepare",
  "campaign.readiness": "read",
  "campaign.goLivePreview": "read",
  "campaign.goLive": "decide",
  "campaign.changeState": "decide",
  "campaign.setBudget": "decide",
  "campaign.events": "read",
  "campaign.sendTo": "decide",
  "campaign.pieces": "read",

  "audience.list": "read",
  "audience.page": "read",
  "audience.get": "read",
  "audience.create": "prepare",
  "audience.addContacts": "prepare",
  "audience.removeContacts": "prepare",
  "audience.rename": "prepare",
  "audience.delete": "prepare",

  "contact.list": "read",
  "contact.count": "read",
  "contact.countries": "read",
  "contact.get": "read",
  "contact.update": "prepare",
  "contact.history": "read",
  "contact.revertField": "prepare",
  "contact.create": "prepare",
  "contact.delete": "administer",

  "account.list": "read",
  "account.get": "read",

  "suppression.list": "read",
  "suppression.counts": "read",
  "suppression.add": "prepare",
  "suppression.remove": "administer",
  "suppression.importCsv": "prepare",

  "contactImport.list": "read",
  "contactImport.uploads": "read",
  "contactImport.get": "read",
  "contactImport.issues": "read",
  "contactImport.duplicates": "read",
  "contactImport.start": "prepare",
  "contactImport.discard": "prepare",
  "contactImport.resume": "prepare",

  "fulfilment.contracts": "read",
  "fulfilment.vendors": "read",
  "fulfilment.quote": "read",
  "fulfilment.create": "administer",
  "fulfilment.approve": "administer",
  "fulfilment.vendorConnections": "read",
  "fulfilment.connectableVendors": "read",
  "fulfilment.connectVendor": "administer",
  "fulfilment.disconnectVendor": "administer",
  "fulfilment.revoke": "administer",

  "confirmation.list": "read",
  "confirmation.pendingCount": "read",
  "confirmation.decide": "decide",
  "confirmation.requestGoLive": "request",
  "confirmation.requestBudget": "request",
  "confirmation.requestResume": "request",

  "results.campaign": "read",
  "results.programme": "read",
  "results.importOutcomes": "prepare",

  "job.get": "read",
  "job.list": "read",
  "job.cancel": "prepare",

  "plan.get": "read",
  "plan.change": "own",
  "plan.billingPortal": "own",

  "connectedAgents.list": "read",
  "connectedAgents.revoke": "administer",

  "workspace.summary": "read",
  "workspace.firstRun": "read",
  "workspace.setProgrammeHoldout": "administer",

  "brand.get": "read",
  "brand.update": "prepare",

  "design.catalog": "read",
  "design.list": "read",
  "design.get": "read",
  "design.create": "prepare",
  "design.update": "prepare",
  "design.preview": "read",
  "design.previewContacts": "read",
  "design.previewSaved": "read",

  "draft.summary": "read",
  "draft.generate": "prepare",
  "draft.list": "read",
  "draft.get": "read",
  "draft.update": "prepare",

  "mailability.estimate": "read",
  "mailability.run": "prepare",
  "mailability.list": "read",
  "mailability.resume": "prepare",
  "mailability.get": "read",
  "mailability.problems": "read",
  "mailability.contact": "read",
  "mailability.forCampaign": "read",
  "mailability.applyFix": "prepare",
  "mailability.applyFixes": "prepare",

  "crm.connections": "read",
  "crm.connect": "administer",
  "crm.disconnect": "administer",
  "crm.setSchedule": "administer",
  "crm.setLeads": "administer",
  "crm.dealOptions": "read",
  "crm.setDealFilter": "administer",
  "crm.syncNow": "administer",
  "crm.sync": "read",
  "crm.syncs": "read",
  "crm.issues": "read",

  "response.list": "read",
  "response.counts": "read",
  "response.openClaims": "read",

  // Endpoint URLs, secrets and delivery bodies are an admin's: the whole page is theirs.
  "webhooks.createEndpoint": "administer",
  "webhooks.listEndpoints": "administer",
  "webhooks.updateEndpoint": "administer",
  "webhooks.rotateSecret": "administer",
  "webhooks.deleteEndpoint": "administer",
  "webhooks.deliveries": "administer",
  "webhooks.redeliver": "administer",
  "webhooks.sendTest": "administer",

  // The outbox holds other people's messages, invitation links among them.
  "email.setup": "administer",
  "email.outbox": "administer",
  "email.counts": "administer",
  "email.message": "administer",
  "email.retry": "administer",
  "email.sendTest": "administer",

  "team.members": "read",
  "team.invite": "administer",
  "team.changeRole": "administer",
  "team.remove": "administer",
  "team.revokeInvite": "administer",
  "team.transferOwnership": "own",

  // Who did what, API keys and agents included: the trail is an admin's, as the people and keys are.
  "activity.list": "administer",
  "activity.filters": "administer",
  "activity.exportCsv": "administer",
};
