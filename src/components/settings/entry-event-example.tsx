"use client";

import { Anchor, Code, Group, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { CopyIcon } from "@/components/ui/copy-icon";
import { useTRPC } from "@/trpc/react";

/**
 * A ready request for a key: one contact of a live campaign that accepts API events, by the
 * `ctc_…` id the REST contract takes, so nobody has to dig ids out of an export to try a key.
 */
export function EntryEventExample({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const example = useQuery(trpc.apiKey.example.queryOptions({ workspaceId }));
  if (example.isPending) return <Skeleton h={120} />;
  if (example.isError)
    return (
      <Text size="sm" c="red.8">
        The example request could not be prepared: {example.error.message}
      </Text>
    );
  const e = example.data;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h4">
          Try a key
        </Title>
        {!e ? (
          <Text size="sm" c="dimmed">
            No live campaign accepts entry events from API keys yet. Switch on “Accept entry events from API keys” on a{" "}
            <Anchor component={Link} href={`/w/${workspaceId}/campaigns`} size="sm">
              draft campaign
            </Anchor>{" "}
            and take it live; a ready request for one of its contacts then appears here.
          </Text>
        ) : !e.contact ? (
          <Text size="sm" c="dimmed">
            Every contact of {e.campaign.name}&apos;s audience has entered it already: add someone to its audience to
            try a key on it.
          </Text>
        ) : (
          <>
            <Text size="sm">
              This request enters <b>{e.contact.name}</b> ({e.contact.id}) into the live campaign{" "}
              <b>{e.campaign.name}</b>: the contact then passes every gate and may be printed and mailed, at the
              campaign&apos;s cost. Put a key with the <Code>post_entry_events</Code> scope in <Code>API_KEY</Code>{" "}
              first. Each contact&apos;s id is on its page, with a copy button.
            </Text>
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <Code
                block
                style={{ flex: 1, whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}
                aria-label="Example request"
              >
                {curl(e.url, e.contact.id)}
              </Code>
              <CopyIcon value={curl(e.url, e.contact.id)} label="Copy the example request" />
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The request as a shell command: the same idempotency key makes a repeat safe. */
function curl(url: string, contactId: string): string {
  const body = JSON.stringify({ contactId, idempotencyKey: `try-${contactId}` });
  return [
    `curl -X POST '${url}' \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}'`,
  ].join("\n");
}
