"use client";

import { Anchor, Button, Group, Paper, Skeleton, Table, Text, Title } from "@mantine/core";
import { CopyIcon } from "@/components/ui/copy-icon";
import { useInfiniteQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";

/** The gifts waiting for their recipient's claim, each with the claim page's link to send them. */
export function GiftClaimLinks({ workspaceId, campaignId }: { workspaceId: string; campaignId: string }) {
  const trpc = useTRPC();
  const claims = useInfiniteQuery(
    trpc.response.openClaims.infiniteQueryOptions(
      { workspaceId, campaignId, take: 25 },
      { getNextPageParam: (last) => last.nextCursor, refetchInterval: 15_000 },
    ),
  );
  const rows = claims.data?.pages.flatMap((p) => p.claims) ?? [];
  return (
    <Paper withBorder p="md" id="claims">
      <Title order={2} size="h4">
        Gifts waiting for a claim
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A gift ships only after its recipient claims it on their page. Send each recipient their own link (by email, or
        in your own sequence): anyone with it can claim. Unclaimed by the date shown, nothing ships and the budget it
        holds is released.
      </Text>
      <ListStates
        query={claims}
        items={rows}
        loading={<Skeleton h={100} />}
        empty={
          <EmptyState title="No gift is waiting">
            Each gift's claim page opens once its budget is held; it is listed here until claimed, declined or expired.
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
                  <Table.Th>Claim link</Table.Th>
                  <Table.Th>Claim by</Table.Th>
                </>
              }
            >
              {items.map((c) => (
                <Table.Tr key={c.claimId}>
                  <Table.Td>
                    {c.recipient}
                    <Text size="xs" c="dimmed">
                      {[c.company, c.email].filter(Boolean).join(" · ")}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Anchor href={c.claimUrl} target="_blank" rel="noopener noreferrer" size="sm">
                        {c.claimUrl.replace(/^https?:\/\//, "")}
                      </Anchor>
                      <CopyIcon value={c.claimUrl} label={`Copy ${c.recipient}'s claim link`} />
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(c.expiresAt)}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {claims.hasNextPage && (
              <Group justify="center" mt="sm">
                <Button variant="subtle" loading={claims.isFetchingNextPage} onClick={() => claims.fetchNextPage()}>
                  Show more
                </Button>
              </Group>
            )}
            <Text size="xs" c="dimmed" mt="xs">
              Opening a link yourself counts as a page view.
            </Text>
          </>
        )}
      </ListStates>
    </Paper>
  );
}
