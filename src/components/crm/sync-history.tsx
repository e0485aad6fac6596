"use client";

import { Badge, Button, Group, List, Paper, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TSyncView } from "@/server/programme/crm/schema";
import { DataTable } from "@/components/ui/data-table";
import { formatCount, formatDateTime, formatNumber } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { CountsGrid } from "./counts-grid";

const statusColor: Record<TSyncView["status"], string> = {
  queued: "gray",
  running: "blue",
  succeeded: "teal",
  failed: "red",
  cancelled: "orange",
};
const statusLabel: Record<TSyncView["status"], string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};
const triggerLabel: Record<TSyncView["trigger"], string> = { owner: "Sync now", schedule: "Schedule", agent: "Agent" };

/** A connection's syncs, newest first, each with its counts and its issues per object. */
export function SyncHistory({ workspaceId, connectionId }: { workspaceId: string; connectionId: string }) {
  const trpc = useTRPC();
  const syncs = useInfiniteQuery(
    trpc.crm.syncs.infiniteQueryOptions(
      { workspaceId, connectionId, take: 10 },
      {
        getNextPageParam: (last) => last.nextCursor,
        refetchInterval: (q) =>
          q.state.data?.pages[0]?.syncs.some((s) => s.status === "queued" || s.status === "running") ? 2000 : false,
      },
    ),
  );
  const [open, setOpen] = useState<string | null>(null);
  if (syncs.isPending) return <Skeleton h={120} />;
  if (syncs.isError) return <PageError message={syncs.error.message} onRetry={() => syncs.refetch()} />;
  const rows = syncs.data.pages.flatMap((p) => p.syncs);
  const opened = rows.find((r) => r.syncId === open) ?? null;
  return (
    <Stack gap="xs">
      <Title order={4} size="h5">
        Sync history
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No sync yet.
        </Text>
      ) : (
        <DataTable
          minWidth={720}
          head={
            <>
              <Table.Th>Started</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Contacts</Table.Th>
              <Table.Th>Outcomes</Table.Th>
              <Table.Th>Problems</Table.Th>
              <Table.Th />
            </>
          }
        >
          {rows.map((s) => (
            <SyncRow
              key={s.syncId}
              sync={s}
              open={open === s.syncId}
              onToggle={() => setOpen(open === s.syncId ? null : s.syncId)}
            />
          ))}
        </DataTable>
      )}
      {opened && (
        <Paper
          withBorder
          p="sm"
          aria-label={`Details of the sync started ${formatDateTime(opened.createdAt)}`}
          component="section"
        >
          <Text size="sm" fw={600}>
            Sync started {formatDateTime(opened.createdAt)}
          </Text>
          <SyncDetails workspaceId={workspaceId} sync={opened} />
        </Paper>
      )}
      {syncs.hasNextPage && (
        <Button
          variant="subtle"
          size="xs"
          onClick={() => syncs.fetchNextPage()}
          loading={syncs.isFetchingNextPage}
          w="fit-content"
        >
          Older syncs
        </Button>
      )}
    </Stack>
  );
}

function SyncRow({ sync: s, open, onToggle }: { sync: TSyncView; open: boolean; onToggle: () => void }) {
  const c = s.counts;
  return (
    <Table.Tr>
      <Table.Td>{formatDateTime(s.createdAt)}</Table.Td>
      <Table.Td>
        {s.mode === "full" ? "Full" : "Changes"}
        <Text size="xs" c="dimmed">
          {triggerLabel[s.trigger]}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={statusColor[s.status]} variant="light">
          {statusLabel[s.status]}
        </Badge>
        {s.job.progress.ratePerSecond !== null && s.job.progress.done > 0 && (
          <Text size="xs" c="dimmed">
            {formatNumber(Math.round(s.job.progress.ratePerSecond))} objects/s
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {formatNumber(c.contacts.read)} read
        <Text size="xs" c="dimmed">
          {formatNumber(c.contacts.created)} new, {formatNumber(c.contacts.updated)} updated
          {c.leads.read > 0 && `; and ${formatNumber(c.leads.read)} ${c.leads.read === 1 ? "lead" : "leads"} read`}
        </Text>
      </Table.Td>
      <Table.Td>
        {formatNumber(c.outcomes.created)} new
        <Text size="xs" c="dimmed">
          from {formatCount(c.deals.read, "deal")}
        </Text>
      </Table.Td>
      <Table.Td>
        {formatNumber(c.issues.errors)} {c.issues.errors === 1 ? "error" : "errors"}
        <Text size="xs" c="dimmed">
          {formatNumber(c.issues.warnings)} {c.issues.warnings === 1 ? "warning" : "warnings"}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Button
          size="xs"
          variant="default"
          onClick={onToggle}
          aria-expanded={open}
          aria-label={`${open ? "Hide" : "Show"} details of the sync started ${formatDateTime(s.createdAt)}`}
        >
          {open ? "Hide" : "Details"}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function SyncDetails({ workspaceId, sync: s }: { workspaceId: string; sync: TSyncView }) {
  const trpc = useTRPC();
  const issues = useInfiniteQuery(
    trpc.crm.issues.infiniteQueryOptions(
      { workspaceId, syncId: s.syncId, take: 20 },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  const items = issues.data?.pages.flatMap((p) => p.issues) ?? [];
  return (
    <Stack gap="sm" py="xs">
      <CountsGrid counts={s.counts} />
      {s.job.error && (
        <Text size="sm" c="red.8">
          {s.job.error}
        </Text>
      )}
      {s.counts.rateLimitWaits > 0 && (
        <Text size="sm" c="dimmed">
          The CRM asked to slow down {formatNumber(s.counts.rateLimitWaits)}{" "}
          {s.counts.rateLimitWaits === 1 ? "time" : "times"}; the sync waited as long as it said each time.
        </Text>
      )}
      {issues.isPending ? (
        <Skeleton h={40} />
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No problems with single objects.
        </Text>
      ) : (
        <>
          <Text size="sm" fw={600}>
            Problems with single objects (errors were not synced; warnings were synced without a value)
          </Text>
          <List size="sm" spacing={2}>
            {items.map((i) => (
              <List.Item key={`${i.objectType}-${i.objectId}-${i.message}`}>
                <Badge size="xs" color={i.severity === "error" ? "red" : "yellow"} variant="light" mr={6}>
                  {i.severity}
                </Badge>
                {i.message}
              </List.Item>
            ))}
          </List>
          {issues.hasNextPage && (
            <Group>
              <Button
                variant="subtle"
                size="xs"
                onClick={() => issues.fetchNextPage()}
                loading={issues.isFetchingNextPage}
              >
                More problems
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
