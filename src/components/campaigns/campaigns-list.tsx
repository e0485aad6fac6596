"use client";

import { Anchor, Button, Group, Progress, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCents, formatNumber } from "@/components/ui/format";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { CampaignStatusBadge } from "./status-badges";
import { useCan } from "@/components/access/role";

export function CampaignsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const campaigns = useQuery(trpc.campaign.list.queryOptions({ workspaceId }));
  const prepare = useCan("prepare");
  const newButton = prepare.allowed ? (
    <Button component={Link} href={`/w/${workspaceId}/campaigns/new`} leftSection={<IconPlus size={16} />}>
      New campaign
    </Button>
  ) : null;
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Campaigns
        </Title>
        <Group gap="sm">
          <Button component={Link} href={`/w/${workspaceId}/programme`} variant="default">
            Programme results
          </Button>
          {newButton}
        </Group>
      </Group>
      <ListStates
        query={campaigns}
        items={campaigns.data}
        loading={<Skeleton h={200} />}
        empty={
          <EmptyState title="No campaigns yet" action={newButton}>
            A campaign mails one audience in one format, against an account-level holdout, through the gates you set:
            frequency caps, a review gate and a budget.
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable
            minWidth={820}
            head={
              <>
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Audience</Table.Th>
                <Table.Th ta="right">Entry events</Table.Th>
                <Table.Th ta="right">Mailed</Table.Th>
                <Table.Th w={220}>Spend of budget</Table.Th>
              </>
            }
          >
            {items.map((c) => {
              const used = c.budgetCents ? ((c.spentCents + c.reservedCents) / c.budgetCents) * 100 : 0;
              return (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/w/${workspaceId}/campaigns/${c.id}`} fw={600}>
                      {c.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {c.format}
                      {c.acceptsApiEvents ? " · accepts API events" : ""}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <CampaignStatusBadge status={c.status} />
                  </Table.Td>
                  <Table.Td>
                    {c.audienceName ? <span className="name">{c.audienceName}</span> : <Text c="dimmed">none</Text>}
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(c.events)}</Table.Td>
                  <Table.Td ta="right">
                    {formatNumber(c.piecesMailed)}
                    {c.piecesSimulated > 0 && (
                      <Text size="xs" c="dimmed">
                        + {formatNumber(c.piecesSimulated)} simulated (sandbox or test key, not mailed)
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Progress
                      value={Math.min(100, used)}
                      size="sm"
                      aria-label={`${Math.round(used)}% of the budget spent or held`}
                    />
                    <Text size="xs" c="dimmed" mt={4}>
                      {formatCents(c.spentCents)} spent · {formatCents(c.budgetCents)} budget
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </DataTable>
        )}
      </ListStates>
    </Stack>
  );
}
