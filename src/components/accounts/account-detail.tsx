"use client";

import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { humanize } from "@/components/campaigns/status-badges";
import { ContactsTable } from "@/components/contacts/contacts-table";
import { sourceLabels } from "@/components/contacts/labels";
import { DataTable } from "@/components/ui/data-table";
import { formatCents, formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";

export function AccountDetail({ workspaceId, accountId }: { workspaceId: string; accountId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.account.get.queryOptions({ workspaceId, accountId }));
  if (query.isPending) return <Skeleton h={400} />;
  if (query.isError) return <PageError message={query.error.message} onRetry={() => query.refetch()} />;
  const a = query.data;
  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Anchor component={Link} href={`/w/${workspaceId}/accounts`} size="sm">
          Accounts
        </Anchor>
        <Title order={1} size="h2" mt={4}>
          {a.name}
        </Title>
        <Text size="sm" c="dimmed">
          {[
            a.domain,
            a.crmId ? `CRM id ${a.crmId}` : null,
            `${sourceLabels[a.source]}${a.sourceDetail ? ` (${a.sourceDetail})` : ""}`,
            `added ${formatDateTime(a.createdAt)}`,
          ]
            .filter(Boolean)
            .join(" · ")}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Contacts
          </Text>
          <Text fz={26} fw={700}>
            {formatNumber(a.contacts)}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
            In audiences
          </Text>
          {a.audiences.length ? (
            a.audiences.map((x) => (
              <Text size="sm" key={x.id}>
                <Anchor component={Link} href={`/w/${workspaceId}/audiences/${x.id}`}>
                  {x.name}
                </Anchor>{" "}
                ({formatNumber(x.contacts)})
              </Text>
            ))
          ) : (
            <Text size="sm" c="dimmed">
              none
            </Text>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
            Holdout arm by campaign
          </Text>
          {a.campaigns.length ? (
            a.campaigns.map((c) => (
              <Group gap={6} key={c.id}>
                <Anchor component={Link} href={`/w/${workspaceId}/campaigns/${c.id}`} size="sm">
                  {c.name}
                </Anchor>
                <Badge size="sm" variant="light" color={c.arm === "holdout" ? "grape" : "teal"}>
                  {c.arm}
                </Badge>
              </Group>
            ))
          ) : (
            <Text size="sm" c="dimmed">
              In no live campaign yet.
            </Text>
          )}
        </Paper>
      </SimpleGrid>
      <Title order={2} size="h4">
        Contacts
      </Title>
      <ContactsTable
        workspaceId={workspaceId}
        filter={{ accountId: a.id }}
        hideAccount
        empty={<EmptyState title="No contacts">This account has no contacts left.</EmptyState>}
      />
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Outcomes
        </Title>
        {a.outcomes.length === 0 ? (
          <Text size="sm" c="dimmed">
            No outcomes reported yet (from the CRM or an outcomes import on a campaign&apos;s results).
          </Text>
        ) : (
          <DataTable
            variant="compact"
            minWidth={480}
            head={
              <>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Source</Table.Th>
              </>
            }
          >
            {a.outcomes.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{humanize(o.kind)}</Table.Td>
                <Table.Td>{formatDateTime(o.at)}</Table.Td>
                <Table.Td ta="right">{o.amountCents === null ? "" : formatCents(o.amountCents)}</Table.Td>
                <Table.Td>{o.source.toUpperCase()}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Paper>
    </Stack>
  );
}
