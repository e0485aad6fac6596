"use client";

import { Anchor, Button, Code, Group, Paper, Skeleton, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCents, formatDateTime } from "@/components/ui/format";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { PieceTracking } from "./piece-tracking";
import { humanize } from "./status-badges";

/**
 * A piece's cost is charged to the campaign when it is mailed, so a failed or cancelled piece
 * (never mailed) was not charged. Except a failed piece the printer could not confirm
 * ("unconfirmed"): it may exist at the printer, its budget hold stays until a person settles it,
 * and the table keeps showing its cost.
 */
const notCharged = (p: { status: string; vendorIssue: string | null }) =>
  p.status === "cancelled" || (p.status === "failed" && p.vendorIssue !== "unconfirmed");

/** The campaign's pieces with their proofs, newest first. */
export function CampaignPiecesTable({ workspaceId, campaignId }: { workspaceId: string; campaignId: string }) {
  const trpc = useTRPC();
  const pieces = useInfiniteQuery(
    trpc.campaign.pieces.infiniteQueryOptions(
      { workspaceId, campaignId, take: 25 },
      { getNextPageParam: (last) => last.nextCursor, refetchInterval: 10_000 },
    ),
  );
  const rows = pieces.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper withBorder p="md" id="pieces">
      <Title order={2} size="h4" mb="sm">
        Pieces
      </Title>
      <ListStates
        query={pieces}
        items={rows}
        loading={<Skeleton h={120} />}
        empty={
          <EmptyState title="No pieces yet">
            Each enrolled contact in the treatment arm gets one piece: its proof appears here before it is printed.
          </EmptyState>
        }
      >
        {(items) => (
          <>
            <DataTable
              minWidth={720}
              variant="compact"
              head={
                <>
                  <Table.Th>Recipient</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>sid</Table.Th>
                  <Table.Th ta="right">Cost</Table.Th>
                  <Table.Th>Mailed</Table.Th>
                  <Table.Th>Tracking</Table.Th>
                  <Table.Th>Proof</Table.Th>
                </>
              }
            >
              {items.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    {p.contact ? (
                      <Anchor size="sm" component={Link} href={`/w/${workspaceId}/contacts/${p.contactId}`}>
                        {`${p.contact.firstName} ${p.contact.lastName}`.trim() || "Unnamed contact"}
                      </Anchor>
                    ) : (
                      <Text size="sm" c="dimmed">
                        Deleted contact
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{humanize(p.status)}</Table.Td>
                  <Table.Td>
                    <Code>{p.sid}</Code>
                  </Table.Td>
                  <Table.Td ta="right">
                    {notCharged(p) ? (
                      <Text size="sm" c="dimmed">
                        not charged
                      </Text>
                    ) : (
                      formatCents(p.costCents)
                    )}
                  </Table.Td>
                  <Table.Td>{formatDateTime(p.mailedAt, "")}</Table.Td>
                  <Table.Td>
                    <PieceTracking piece={p} />
                  </Table.Td>
                  <Table.Td>
                    {p.renderedAt ? (
                      <Anchor
                        href={`/api/pieces/${p.id}/proof?workspaceId=${workspaceId}`}
                        target="_blank"
                        rel="noopener"
                      >
                        Open PDF
                      </Anchor>
                    ) : (
                      <Text size="sm" c="dimmed">
                        none
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {pieces.hasNextPage && (
              <Group justify="center" mt="sm">
                <Button variant="subtle" loading={pieces.isFetchingNextPage} onClick={() => pieces.fetchNextPage()}>
                  Show more
                </Button>
              </Group>
            )}
            <Text size="xs" c="dimmed" mt="xs">
              The sid is what a printed response link adds to the destination URL; report conversions against it.
            </Text>
          </>
        )}
      </ListStates>
    </Paper>
  );
}
