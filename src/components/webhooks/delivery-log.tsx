"use client";

import {
  Badge,
  Button,
  Code,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";

const statusColor = { pending: "yellow", succeeded: "teal", failed: "red" } as const;

/** One endpoint's deliveries, newest first: each attempt's answer, and Redeliver. Refreshes while any is pending. */
export function DeliveryLog({
  workspaceId,
  endpointId,
  url,
}: {
  workspaceId: string;
  endpointId: string;
  url: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { workspaceId, endpointId, take: 20 };
  const log = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(input, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: (q) =>
        q.state.data?.pages.some((p) => p.deliveries.some((d) => d.status === "pending")) ? 3000 : false,
    }),
  );
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: async () => {
        notifications.show({
          color: "teal",
          title: "Redelivery queued",
          message: "The same event goes out again now, with the same webhook-id.",
        });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: (err) => notifications.show({ color: "red", title: "Could not redeliver", message: err.message }),
    }),
  );
  const rows = log.data?.pages.flatMap((p) => p.deliveries) ?? [];

  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Deliveries to <Code>{url}</Code>
      </Title>
      {log.isPending ? (
        <Stack gap="xs" aria-busy="true">
          <Skeleton h={32} />
          <Skeleton h={32} />
        </Stack>
      ) : log.isError ? (
        <PageError message={log.error.message} onRetry={() => log.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No deliveries yet">
          Events of the types this endpoint chose appear here as they happen. Send a test event to try it now.
        </EmptyState>
      ) : (
        <DataTable
          minWidth={860}
          head={
            <>
              <Table.Th>Queued</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Last answer</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </>
          }
        >
          {rows.map((d) => (
            <Table.Tr key={d.deliveryId}>
              <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {d.type}
                </Text>
                <Text size="xs" c="dimmed">
                  webhook-id {d.webhookId}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge color={statusColor[d.status]} variant="light">
                  {d.status}
                </Badge>
                {d.status === "pending" && d.nextAttemptAt ? (
                  <Text size="xs" c="dimmed">
                    next try {formatDateTime(d.nextAttemptAt)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td maw={320}>
                {d.attemptLog[0] ? (
                  <Tooltip
                    label={d.attemptLog
                      .map((a) => `${formatDateTime(a.at)}: ${a.status ?? "no answer"} in ${a.latencyMs} ms`)
                      .join("\n")}
                    multiline
                    w={320}
                  >
                    <div>
                      <Text size="sm">
                        {d.attemptLog[0].status ?? "No answer"} · {d.attemptLog[0].latencyMs} ms
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {d.attemptLog[0].response || "(empty body)"}
                      </Text>
                    </div>
                  </Tooltip>
                ) : (
                  <Text size="sm" c="dimmed">
                    Not tried yet
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Button
                  size="xs"
                  variant="light"
                  loading={redeliver.isPending && redeliver.variables?.deliveryId === d.deliveryId}
                  onClick={() => redeliver.mutate({ workspaceId, deliveryId: d.deliveryId })}
                  aria-label={`Redeliver ${d.type} ${d.webhookId}`}
                >
                  Redeliver
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {log.hasNextPage ? (
        <Group justify="center">
          <Button variant="default" onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Older deliveries
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
