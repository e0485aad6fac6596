"use client";

import { Anchor, Button, Group, Paper, Select, Skeleton, Table, Text, Title } from "@mantine/core";
import Link from "next/link";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ENTRY_STATUSES } from "@/server/programme/entry/lifecycle-states";
import { formatDateTime } from "@/components/ui/format";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import type { EntryEventStatus } from "@/server/programme/entry/lifecycle-states";
import { REASON_LABELS, type TMailabilityReason } from "@/server/programme/mailability/reasons";
import { useTRPC } from "@/trpc/react";
import { EventStatusBadge, humanize } from "./status-badges";

/** The campaign's entry events with their status and reason, newest first, 25 at a time. */
export function CampaignEventsTable({ workspaceId, campaignId }: { workspaceId: string; campaignId: string }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<EntryEventStatus | null>(null);
  const events = useInfiniteQuery(
    trpc.campaign.events.infiniteQueryOptions(
      { workspaceId, campaignId, take: 25, ...(status ? { status } : {}) },
      { getNextPageParam: (last) => last.nextCursor, refetchInterval: 10_000 },
    ),
  );
  const rows = events.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper withBorder p="md" id="events">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Entry events
        </Title>
        <Select
          aria-label="Filter by status"
          placeholder="All statuses"
          clearable
          w={200}
          data={ENTRY_STATUSES.map((s) => ({ value: s, label: humanize(s) }))}
          value={status}
          onChange={setStatus}
        />
      </Group>
      <ListStates
        query={events}
        items={rows}
        loading={<Skeleton h={160} />}
        empty={
          <EmptyState title={status ? `No ${humanize(status)} events` : "No entry events yet"}>
            Events arrive from API keys (POST /api/v1/campaigns/{"{id}"}/events) and from agents while the campaign is
            live.
          </EmptyState>
        }
      >
        {(items) => (
          <>
            <DataTable
              minWidth={760}
              variant="compact"
              head={
                <>
                  <Table.Th>Contact</Table.Th>
                  <Table.Th miw={130}>Status</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th>Occurred</Table.Th>
                  <Table.Th>Finished</Table.Th>
                </>
              }
            >
              {items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    {e.contact ? (
                      <Anchor size="sm" fw={500} component={Link} href={`/w/${workspaceId}/contacts/${e.contact.id}`}>
                        {`${e.contact.firstName} ${e.contact.lastName}`.trim() || "Unnamed contact"}
                      </Anchor>
                    ) : (
                      <Text size="sm" fw={500} c="dimmed">
                        Deleted contact
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {e.contact?.account?.name ?? "no account"} · {e.source}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    <EventStatusBadge status={e.status} skipReason={e.skipReason} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {e.skipReason
                        ? `${humanize(e.skipReason)}${e.mailabilityReasons?.length ? `: ${e.mailabilityReasons.map((r) => REASON_LABELS[r as TMailabilityReason] ?? r).join("; ")}` : ""}`
                        : e.status === "waiting" &&
                            e.enrollment?.scheduledFor &&
                            new Date(e.enrollment.scheduledFor) > new Date()
                          ? `frequency cap: sends ${formatDateTime(e.enrollment.scheduledFor)}`
                          : e.status === "failed"
                            ? (e.lastError ?? "")
                            : ""}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(e.occurredAt)}</Table.Td>
                  <Table.Td>{formatDateTime(e.completedAt, "")}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {events.hasNextPage && (
              <Group justify="center" mt="sm">
                <Button variant="subtle" loading={events.isFetchingNextPage} onClick={() => events.fetchNextPage()}>
                  Show more
                </Button>
              </Group>
            )}
          </>
        )}
      </ListStates>
    </Paper>
  );
}
