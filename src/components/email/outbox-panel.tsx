"use client";

import {
  Alert,
  Badge,
  Button,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconMailForward, IconServer } from "@tabler/icons-react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { EmailMessageModal } from "./email-message-modal";
import { EMAIL_KIND_LABELS, EMAIL_STATUS_COLORS } from "./labels";

type Filter = "all" | "queued" | "sent" | "failed";

/** Settings → Email: how mail leaves, a test message, and every message about the workspace. */
export function OutboxPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>("all");
  const [open, setOpen] = useState<string | null>(null);
  const setup = useQuery(trpc.email.setup.queryOptions({ workspaceId }));
  const counts = useQuery(trpc.email.counts.queryOptions({ workspaceId }, { refetchInterval: 10_000 }));
  const busy = (counts.data?.queued ?? 0) + (counts.data?.sending ?? 0) > 0;
  const outbox = useInfiniteQuery(
    trpc.email.outbox.infiniteQueryOptions(
      { workspaceId, take: 25, ...(filter === "all" ? {} : { status: filter }) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, refetchInterval: busy ? 3000 : false },
    ),
  );
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.email.outbox.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.email.counts.pathKey() }),
    ]);
  const sendTest = useMutation(
    trpc.email.sendTest.mutationOptions({
      onSuccess: async (r) => {
        notifications.show({ color: "teal", title: "Test email queued", message: `It is on its way to ${r.to}.` });
        await refresh();
      },
      onError: (err) =>
        notifications.show({ color: "red", title: "Could not send a test email", message: err.message }),
    }),
  );
  const retry = useMutation(
    trpc.email.retry.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "teal", title: "Sending again", message: "The message goes out again now." });
        await refresh();
      },
      onError: (err) => notifications.show({ color: "red", title: "Could not send it again", message: err.message }),
    }),
  );
  const rows = outbox.data?.pages.flatMap((p) => p.messages) ?? [];
  const c = counts.data;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Email
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            Every message the service sends about this workspace: invitations, cards waiting for a decision, budget and
            connection alerts, weekly summaries. Messages leave in the background; one the mail server does not take is
            tried again for about a day and stays here with the reason. Password resets and verification links belong to
            one person and are not listed.
          </Text>
        </div>
        <Button
          leftSection={<IconMailForward size={16} aria-hidden />}
          onClick={() => sendTest.mutate({ workspaceId })}
          loading={sendTest.isPending}
        >
          Send me a test email
        </Button>
      </Group>

      {setup.data ? (
        setup.data.transport === "log" ? (
          <Alert color="yellow" title="No mail server is set up: messages are not sent" icon={<IconServer size={18} />}>
            Each message is kept here and written to the server log. Set <code>SMTP_URL</code> and{" "}
            <code>EMAIL_FROM</code> to send them through your mail server.
          </Alert>
        ) : (
          <Alert color="gray" title="Sending through your mail server" icon={<IconServer size={18} />}>
            {setup.data.description}.
          </Alert>
        )
      ) : null}

      <SegmentedControl
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        aria-label="Show messages"
        data={[
          { value: "all", label: "All" },
          { value: "queued", label: `Waiting${c ? ` (${c.queued + c.sending})` : ""}` },
          { value: "sent", label: `Sent${c ? ` (${c.sent})` : ""}` },
          { value: "failed", label: `Failed${c ? ` (${c.failed})` : ""}` },
        ]}
        style={{ alignSelf: "flex-start" }}
      />

      {outbox.isPending ? (
        <Stack gap="xs" aria-busy="true">
          <Skeleton h={36} />
          <Skeleton h={36} />
        </Stack>
      ) : outbox.isError ? (
        <PageError message={outbox.error.message} onRetry={() => outbox.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={filter === "all" ? "No messages yet" : `No ${filter} messages`}>
          {filter === "all"
            ? "Messages appear here when something is sent: send yourself a test email to try the setup."
            : "Nothing in this state right now."}
        </EmptyState>
      ) : (
        <DataTable
          minWidth={900}
          head={
            <>
              <Table.Th>Queued</Table.Th>
              <Table.Th>To</Table.Th>
              <Table.Th>Message</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </>
          }
        >
          {rows.map((m) => (
            <Table.Tr key={m.messageId}>
              <Table.Td>{formatDateTime(m.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: "break-all" }}>
                  {m.to}
                </Text>
              </Table.Td>
              <Table.Td maw={340}>
                <Text size="sm" fw={500} lineClamp={1}>
                  {m.subject}
                </Text>
                <Text size="xs" c="dimmed">
                  {EMAIL_KIND_LABELS[m.kind] ?? m.kind}
                </Text>
                {m.lastError ? (
                  <Text size="xs" c={m.status === "failed" ? "red.8" : "yellow.9"} lineClamp={2}>
                    {m.lastError}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Badge color={EMAIL_STATUS_COLORS[m.status]} variant="light">
                  {m.status === "sent" && m.deliveredVia === "log" ? "in the log" : m.status}
                </Badge>
                {m.status === "queued" && m.attempts > 0 && m.nextAttemptAt ? (
                  <Text size="xs" c="dimmed">
                    next try {formatDateTime(m.nextAttemptAt)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{m.attempts}</Table.Td>
              <Table.Td ta="right">
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => setOpen(m.messageId)}
                    aria-label={`View “${m.subject}” to ${m.to}`}
                  >
                    View
                  </Button>
                  {m.status === "failed" || (m.status === "queued" && m.attempts > 0) ? (
                    <Button
                      size="xs"
                      variant="light"
                      loading={retry.isPending && retry.variables?.messageId === m.messageId}
                      onClick={() => retry.mutate({ workspaceId, messageId: m.messageId })}
                      aria-label={`Send “${m.subject}” to ${m.to} again now`}
                    >
                      Send now
                    </Button>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {outbox.hasNextPage ? (
        <Group justify="center">
          <Button variant="default" onClick={() => outbox.fetchNextPage()} loading={outbox.isFetchingNextPage}>
            Older messages
          </Button>
        </Group>
      ) : null}
      <EmailMessageModal workspaceId={workspaceId} messageId={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
