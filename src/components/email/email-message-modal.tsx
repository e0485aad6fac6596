"use client";

import { Alert, Badge, Code, Group, Modal, Skeleton, Stack, Tabs, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { EMAIL_KIND_LABELS, EMAIL_STATUS_COLORS } from "./labels";

/** One message as it was sent: who to, what happened to it, its plain-text part and its HTML. */
export function EmailMessageModal({
  workspaceId,
  messageId,
  onClose,
}: {
  workspaceId: string;
  messageId: string | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const message = useQuery(
    trpc.email.message.queryOptions({ workspaceId, messageId: messageId ?? "" }, { enabled: !!messageId }),
  );
  const m = message.data;
  return (
    <Modal opened={!!messageId} onClose={onClose} title={m?.subject ?? "Message"} size="xl">
      {message.isPending ? (
        <Stack gap="xs" aria-busy="true">
          <Skeleton h={20} />
          <Skeleton h={240} />
        </Stack>
      ) : message.isError ? (
        <PageError message={message.error.message} onRetry={() => message.refetch()} />
      ) : m ? (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge color={EMAIL_STATUS_COLORS[m.status]} variant="light">
              {m.status}
            </Badge>
            <Text size="sm">
              {EMAIL_KIND_LABELS[m.kind] ?? m.kind} to <strong>{m.to}</strong>, queued {formatDateTime(m.createdAt)}
              {m.sentAt ? `, sent ${formatDateTime(m.sentAt)}` : ""}
            </Text>
          </Group>
          {m.lastError ? (
            <Alert color={m.status === "failed" ? "red" : "yellow"} title="Last attempt">
              {m.lastError}
            </Alert>
          ) : null}
          {m.providerResponse ? (
            <Text size="xs" c="dimmed">
              {m.deliveredVia === "log" ? "" : "The SMTP server answered: "}
              {m.providerResponse} {m.providerMessageId ? <Code>{m.providerMessageId}</Code> : null}
            </Text>
          ) : null}
          <Tabs defaultValue="html">
            <Tabs.List>
              <Tabs.Tab value="html">As sent (HTML)</Tabs.Tab>
              <Tabs.Tab value="text">Plain text</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="html" pt="sm">
              {/* Sandboxed without scripts, forms or navigation: the message is shown, nothing in it runs. */}
              <iframe
                title={`HTML part of “${m.subject}”`}
                srcDoc={m.html}
                sandbox=""
                style={{ width: "100%", height: 480, border: "1px solid var(--mantine-color-gray-3)", borderRadius: 4 }}
              />
            </Tabs.Panel>
            <Tabs.Panel value="text" pt="sm">
              <Code block style={{ whiteSpace: "pre-wrap", maxHeight: 480, overflow: "auto" }}>
                {m.text}
              </Code>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      ) : null}
    </Modal>
  );
}
