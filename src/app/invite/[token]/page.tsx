import { Alert, Anchor, Stack, Text } from "@mantine/core";
import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvitation } from "@/components/auth/accept-invitation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getSessionUser } from "@/server/records/auth/session";
import { getDb } from "@/server/ground/db";
import { isAppError } from "@/server/ground/errors";
import { describeInvitation } from "@/server/records/team/invitations";
import { ZInviteToken } from "@/server/records/team/schema";

export const metadata: Metadata = { title: "Join a workspace" };

const ROLE_NAMES = {
  owner: "the owner",
  admin: "an admin",
  approver: "an approver",
  member: "a member",
  viewer: "a viewer",
};

/**
 * `{base_url}/invite/{token}`: a new person creates their account through it; a signed-in person
 * with the invited address joins with a press. Nothing is used up by opening the page.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const parsed = ZInviteToken.safeParse((await params).token);
  const invitation = parsed.success
    ? await describeInvitation(getDb(), { token: parsed.data }).catch((e) =>
        isAppError(e) ? e.message : Promise.reject(e),
      )
    : "This invitation link is not valid. Check that you opened the whole link from the email.";
  if (typeof invitation === "string" || invitation.problem)
    return (
      <AuthFrame title="This invitation cannot be used" subtitle="">
        <Alert color="red" role="alert">
          {typeof invitation === "string" ? invitation : invitation.problem}
        </Alert>
      </AuthFrame>
    );
  const token = parsed.data ?? "";
  const user = await getSessionUser();
  const subtitle = `You are invited to join ${invitation.workspaceName} as ${ROLE_NAMES[invitation.role]}, with ${invitation.email}.`;
  if (user)
    return (
      <AuthFrame title={`Join ${invitation.workspaceName}`} subtitle={subtitle}>
        {user.email === invitation.email ? (
          <AcceptInvitation token={token} workspaceName={invitation.workspaceName} />
        ) : (
          <Alert color="yellow" role="status">
            You are signed in as {user.email}, but this invitation is for {invitation.email}. Sign out, then open the
            link again and sign in or create an account with {invitation.email}.
          </Alert>
        )}
      </AuthFrame>
    );
  return (
    <AuthFrame title={`Join ${invitation.workspaceName}`} subtitle={subtitle}>
      <Stack>
        <SignUpForm invite={{ token, email: invitation.email }} />
        <Text size="sm" ta="center">
          Already have an account with {invitation.email}?{" "}
          <Anchor component={Link} href={`/sign-in?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}>
            Sign in to accept
          </Anchor>
        </Text>
      </Stack>
    </AuthFrame>
  );
}
