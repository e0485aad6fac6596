import { baseUrl } from "@/server/ground/platform/base-url";
import { type RenderedEmail, rendered } from "./rendered";

/** An admin's test of the email setup, sent to themselves from Settings → Email. */
export function testEmail(p: {
  workspaceId: string;
  workspaceName: string;
  requestedBy: string;
  /** Where mail goes (describeEmailSettings). */
  setup: string;
  base?: string;
}): RenderedEmail {
  const base = p.base ?? baseUrl();
  return rendered("test", `Test email from ${p.workspaceName}`, {
    preview: "Your workspace's email reaches your inbox.",
    heading: "Email works",
    paragraphs: [
      `${p.requestedBy} asked for this test in the settings of ${p.workspaceName}. If you are reading it, messages from the service reach this inbox: password resets, invitations and notifications.`,
    ],
    facts: [["Sent through", p.setup]],
    action: { label: "Open the outbox", url: `${base}/w/${p.workspaceId}/settings/email` },
    footer: [`You get this email because you asked for a test in ${p.workspaceName}.`],
  });
}
