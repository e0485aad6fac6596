import type { MembershipRole } from "@/generated/prisma/client";
import { baseUrl } from "@/server/ground/platform/base-url";
import { formatCents, formatDateTimeUtc } from "./format";
import { type RenderedEmail, rendered } from "./rendered";

/** What each role may do, in the words of an invitation. */
const ROLE_WORDS: Record<MembershipRole, { name: string; may: string }> = {
  owner: { name: "owner", may: "do everything, plan and billing included" },
  admin: {
    name: "admin",
    may: "manage the workspace: members, printers, API keys, webhooks and the CRM, and accept confirmation cards",
  },
  approver: { name: "approver", may: "prepare campaigns and accept confirmation cards" },
  member: {
    name: "member",
    may: "prepare contacts, designs, drafts and campaigns, and ask for go-live, budget and approval",
  },
  viewer: { name: "viewer", may: "read everything in the workspace" },
};

/**
 * An invitation to a workspace: the link is `{base_url}/invite/{token}`, bound to the invited
 * address, single use, until `expiresAt`.
 */
export function invitationEmail(p: {
  workspaceName: string;
  invitedBy: { name: string; email: string };
  role: MembershipRole;
  /** An approver's limit per card, in cents (null: no limit). */
  approvalLimitCents?: number | null;
  token: string;
  expiresAt: Date;
  base?: string;
}): RenderedEmail {
  const base = p.base ?? baseUrl();
  const role = ROLE_WORDS[p.role];
  const aRole = `${/^[aeiou]/.test(role.name) ? "an" : "a"} ${role.name}`;
  const limit =
    p.role === "approver" && p.approvalLimitCents != null
      ? ` (cards of up to ${formatCents(p.approvalLimitCents)} each)`
      : "";
  return rendered("invitation", `${p.invitedBy.name} invited you to ${p.workspaceName}`, {
    preview: `Join ${p.workspaceName} as ${aRole}.`,
    heading: `Join ${p.workspaceName}`,
    paragraphs: [
      `${p.invitedBy.name} (${p.invitedBy.email}) invited you to the ${p.workspaceName} workspace as ${aRole}: you may ${role.may}${limit}.`,
      "Accept with this address: sign in if you have an account, or create one through the link.",
    ],
    action: { label: "Accept the invitation", url: `${base}/invite/${p.token}` },
    after: [`The link works once, until ${formatDateTimeUtc(p.expiresAt)}.`],
    footer: [
      `You get this email because ${p.invitedBy.email} invited this address. If you did not expect it, ignore it.`,
    ],
  });
}
