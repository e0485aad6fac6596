import { Alert, Anchor, Text } from "@mantine/core";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/auth/auth-frame";
import { ConsentCard } from "@/components/oauth/consent-card";
import { getSessionUser } from "@/server/records/auth/session";
import { getDb } from "@/server/ground/db";
import { isLoopbackRedirect } from "@/server/records/oauth/clients";
import { consentContext } from "@/server/records/oauth/consent";
import { baseUrl } from "@/server/ground/platform/base-url";

export const metadata: Metadata = { title: "Connect an agent" };
export const dynamic = "force-dynamic";

/** OAuth authorization endpoint: the owner signs in (afresh if need be) and approves or denies the agent. */
export default async function AuthorizePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const user = await getSessionUser();
  const query = new URLSearchParams(Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
  const ctx = await consentContext(getDb(), baseUrl(), user, raw);
  if (ctx.kind === "sign-in") redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/oauth/authorize?${query}`)}`);
  if (ctx.kind === "redirect") redirect(ctx.location);
  if (ctx.kind === "error") {
    return (
      <AuthFrame
        title="This link cannot connect an agent"
        subtitle="The agent's request is not valid, so nothing was shared with it."
      >
        <Alert color="red" title="What went wrong">
          {ctx.message}
        </Alert>
        {ctx.location && (
          <Text size="sm" mt="md">
            To tell the application, go back to it:{" "}
            <Anchor href={ctx.location}>{new URL(ctx.location).host || ctx.location}</Anchor>
          </Text>
        )}
      </AuthFrame>
    );
  }
  const { auth, workspaces, firstTime, hidden, scopes } = ctx;
  return (
    <AuthFrame title="Connect an agent" subtitle="An AI agent asks to act in your workspace.">
      <ConsentCard
        clientName={auth.client.name}
        clientId={auth.client.clientId}
        redirectHost={new URL(auth.redirectUri).host || auth.redirectUri}
        localhost={isLoopbackRedirect(auth.redirectUri)}
        firstTime={firstTime}
        scopes={scopes}
        workspaces={workspaces}
        userEmail={user?.email ?? ""}
        hidden={hidden}
      />
    </AuthFrame>
  );
}
