import { z } from "zod";

/**
 * Prompts for the common jobs: each says which tools to call, in order, and what to tell the
 * person. Their tool names are checked against the catalog by the tests.
 */
export interface PromptDef {
  name: string;
  title: string;
  description: string;
  args: Record<string, z.ZodOptional<z.ZodString>>;
  /** The tools the prompt tells the agent to call, in order. */
  tools: string[];
  text: (args: Record<string, string | undefined>) => string;
}

const steps = (lines: string[]) => lines.map((l, i) => `${i + 1}. ${l}`).join("\n");
const closing =
  "After each write, tell the person what you requested, what changed and what awaits their confirmation (with each card's URL). Money is in cents: report it as cents or convert it explicitly.";

export const MCP_PROMPTS: PromptDef[] = [
  {
    name: "audit_crm_for_mail",
    title: "Audit my CRM for mail",
    description: "Find out how much of an audience can really be reached by mail, account by account, and what to fix.",
    args: {
      audienceId: z
        .string()
        .max(64)
        .optional()
        .describe("The audience to audit (aud_…); ask audiences_list when not given."),
    },
    tools: [
      "workspace_get_summary",
      "crm_connections_list",
      "crm_sync_start",
      "crm_sync_get",
      "audiences_list",
      "audits_estimate",
      "audits_run",
      "audits_get",
      "audits_problems",
      "contacts_apply_fix",
      "contacts_apply_fixes",
    ],
    text: (a) =>
      `Audit ${a.audienceId ? `audience ${a.audienceId}` : "one of my audiences"} for direct mail.\n\n${steps([
        "Call workspace_get_summary to learn the plan and how many contacts there are.",
        "Call crm_connections_list: if a CRM is connected and its last sync is old, call crm_sync_start and poll crm_sync_get until it has succeeded, so the audit sees the CRM as it is now (CRM lists arrive as audiences).",
        a.audienceId
          ? `Use audience ${a.audienceId}.`
          : "Call audiences_list and ask me which audience to audit if it is not obvious.",
        "Call audits_estimate and tell me what verifying the addresses would cost (in cents as cents); run with verify: true only if I agree.",
        "Call audits_run with the audience id, then poll audits_get with the auditId until its status is succeeded (report its progress while it runs).",
        "Report the mailable, fixable and unmailable counts and shares, the reasons with their counts (what each means: the mailability-reasons resource), and the account coverage (accounts with at least one mailable contact), since the holdout is drawn per account.",
        "For fixable contacts, show a few suggestions (audits_problems with status fixable) and apply them with contacts_apply_fix or contacts_apply_fixes only after I agree.",
      ])}\n\n${closing}`,
  },
  {
    name: "plan_holdout_test",
    title: "Plan a holdout test",
    description: "Size the holdout for a campaign: how many accounts each arm needs to detect the lift you care about.",
    args: {
      baselineRate: z
        .string()
        .max(20)
        .optional()
        .describe("The conversion rate without mail, as a fraction (0.07 for 7 per cent)."),
      relativeLift: z
        .string()
        .max(20)
        .optional()
        .describe("The smallest relative lift worth detecting, as a fraction (0.2 for 20 per cent)."),
    },
    tools: ["workspace_get_summary", "audiences_list", "holdouts_calculate_size", "campaigns_create_draft"],
    text: (a) =>
      `Plan a holdout test for a direct-mail campaign.\n\n${steps([
        "Call workspace_get_summary and audiences_list to see how many accounts I can mail.",
        `Call holdouts_calculate_size with baselineRate ${a.baselineRate ?? "(ask me, as a fraction)"} and relativeLift ${a.relativeLift ?? "(ask me, as a fraction)"}.`,
        "Compare the accounts each arm needs with the accounts in the audience; if there are too few, say what lift could be detected instead or how long it would take.",
        "Propose a holdout share (0 to 0.5) and, if I agree, create the draft with campaigns_create_draft.",
      ])}\n\n${closing}`,
  },
  {
    name: "draft_campaign_for_audience",
    title: "Draft a campaign for an audience",
    description: "Prepare a draft campaign with recipient-specific copy, ready for the owner to approve.",
    args: {
      audienceId: z.string().max(64).optional().describe("The audience to mail (aud_…)."),
      designId: z.string().max(64).optional().describe("The design to print (dsn_…); chosen with you when not given."),
    },
    tools: [
      "workspace_get_summary",
      "contracts_list",
      "audiences_list",
      "designs_list",
      "designs_create",
      "designs_preview",
      "campaigns_create_draft",
      "drafts_generate",
      "drafts_list",
      "drafts_update",
      "campaigns_get",
      "campaigns_update_draft",
      "campaigns_request_go_live",
    ],
    text: (a) =>
      `Draft a direct-mail campaign for ${a.audienceId ? `audience ${a.audienceId}` : "an audience I choose"}.\n\n${steps(
        [
          "Call workspace_get_summary (on the free audit plan nothing is mailed: say so) and contracts_list (a campaign prints only through an approved contract for its format).",
          a.audienceId
            ? `Use audience ${a.audienceId} (audiences_list shows its size).`
            : "Call audiences_list and ask me which audience to mail.",
          a.designId
            ? `Use design ${a.designId} if its size is the contract's size (designs_list gives it; contracts_list gives the contract's: a 4x6 design does not print on a 6x9 contract); if it does not fit, say so and make one with designs_create in that size. Show me designs_preview for a real contact of the audience.`
            : "Call designs_list for a design of the format whose size is the contract's size (contracts_list gives it: a 4x6 design does not print on a 6x9 contract); if none fits, make one with designs_create in that size (it takes the brand kit). Show me designs_preview for a real contact of the audience.",
          "Call campaigns_create_draft with a name, format, the design, the audience, a holdout share, a budget in cents and copy that uses only the merge fields the tool lists.",
          "Call drafts_generate to render every recipient's piece, poll it with its jobId, then drafts_list with the filters overflowing, missing_data and unmailable (recipients whose piece would be skipped, with the reasons); rewrite a recipient's copy with drafts_update only where I agree.",
          "Read it back with campaigns_get and show me the copy. Change it with campaigns_update_draft until I am happy (generate the drafts again after a change).",
          "Only when I ask, call campaigns_request_go_live: it creates a card that I accept in the browser. Read its warnings to me (budget below the audience's cost, design size not the contract's, unmailable contacts). Never treat my chat reply as the approval.",
        ],
      )}\n\n${closing}`,
  },
  {
    name: "launch_rest_entry_campaign",
    title: "Launch a campaign my own system feeds",
    description:
      "Import contacts, draft a campaign that accepts entry events, take it live, hand my system an API key, and follow the pieces.",
    args: { audienceName: z.string().max(120).optional().describe("The audience to import into, by name.") },
    tools: [
      "workspace_get_summary",
      "plans_request_change",
      "contacts_import",
      "contracts_list",
      "campaigns_create_draft",
      "campaigns_request_go_live",
      "confirmations_get",
      "entry_events_post",
      "entry_events_get",
      "pieces_list",
      "pieces_get",
    ],
    text: (a) =>
      `Set up a campaign that my own system (CRM workflow, product, backend) feeds through the REST API.\n\n${steps([
        "Call workspace_get_summary: mail needs the paid plan (plans_request_change asks the owner).",
        `Call contacts_import with my CSV text${a.audienceName ? ` and audienceName "${a.audienceName}"` : ""}; report refused rows by number.`,
        "Call contracts_list and pick the approved contract for the format; use a design of the contract's size.",
        "Call campaigns_create_draft with acceptsApiEvents true, the audience, the contract, copy and a budget in cents that covers the audience (pieces times the contract's unit cost).",
        "When I ask, call campaigns_request_go_live, read me its warnings, give me its URL, and poll confirmations_get until I decide. If it expired on acceptance (the audience changed), ask again.",
        "Tell me to create an API key with the post_entry_events scope in Settings → API keys (only I can, in the browser) and give my system POST /api/v1/campaigns/{campaignId}/events with an Idempotency key per source event; never ask me for the key.",
        "To test or backfill, call entry_events_post (its batch form takes up to 500 events), each with its own idempotencyKey; follow each with entry_events_get.",
        "Follow the pieces with pieces_list (campaignId) and pieces_get (status, tracking reference, cost, a proof link you can open).",
      ])}\n\n${closing}`,
  },
  {
    name: "report_campaign_lift",
    title: "Report a campaign's lift",
    description: "Explain a live or ended campaign's lift against its held-out accounts, honestly.",
    args: { campaignId: z.string().max(64).optional().describe("The campaign (cmp_…).") },
    tools: ["campaigns_list", "campaigns_get", "results_get"],
    text: (a) =>
      `Report the lift of ${a.campaignId ? `campaign ${a.campaignId}` : "a campaign I choose"}.\n\n${steps([
        a.campaignId
          ? `Use campaign ${a.campaignId}.`
          : "Call campaigns_list and ask me which live or ended campaign to report on.",
        "Call campaigns_get for its arms, spend (cents) and budget (cents).",
        "Call results_get. For each conversion kind give the treated and held-out rates, the absolute and relative lift with its 95% interval and the verdict.",
        "While the campaign is live or paused, lead with each kind's alwaysValid interval and verdict (they hold however often results are read); the fixed-horizon verdict is sound only when read once, after the outcome window.",
        'Say "not enough data yet" when the verdict says so, and never present an interval that includes zero as a gain. Money fields are in cents.',
      ])}\n\n${closing}`,
  },
];
