"use client";

import { Anchor, Button, Paper, Select, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates, PageError } from "@/components/ui/page-states";
import { AuditRunPanel } from "./audit-run-panel";
import { AuditStatusBadge } from "./audit-status-badge";
import { useTRPC } from "@/trpc/react";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** Run the mailability audit for an audience, and the history of runs. */
export function AuditsPage({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const audiences = useQuery(trpc.audience.list.queryOptions({ workspaceId }));
  const audits = useQuery({
    ...trpc.mailability.list.queryOptions({ workspaceId, take: 50 }),
    refetchInterval: (q) =>
      q.state.data?.audits.some((a) => a.status === "queued" || a.status === "running") ? 2000 : false,
  });
  const [audienceId, setAudienceId] = useState<string | null>(null);
  const chosen = audienceId ?? audiences.data?.[0]?.id ?? null;

  return (
    <Stack gap="md" maw={1100}>
      <Title order={1} size="h2">
        Mailability audit
      </Title>
      <Text size="sm" c="dimmed" maw={760}>
        Before any money is spent: how much of an audience can really be reached by mail, account by account, why not,
        and what to fix. Each contact is mailable, fixable (a likely correction exists) or unmailable, with every reason
        that applies; the lifecycle applies the same verdict before printing. Works on both plans.{" "}
        <Anchor href="/docs/mailability" size="sm">
          What each reason means
        </Anchor>
      </Text>
      <Paper withBorder p="md">
        {audiences.isPending ? (
          <Skeleton h={60} />
        ) : audiences.isError ? (
          <PageError message={audiences.error.message} onRetry={() => audiences.refetch()} />
        ) : !audiences.data?.length ? (
          <EmptyState
            title="No audience to audit yet"
            action={
              <Button component={Link} href={`/w/${workspaceId}/contacts/import`}>
                Import contacts
              </Button>
            }
          >
            An import makes an audience of its contacts; audit it here.
          </EmptyState>
        ) : (
          <Stack gap="sm">
            <Select
              label="Audience"
              data={audiences.data.map((a) => ({
                value: a.id,
                label: `${a.name} (${formatNumber(a.members)} contacts)`,
              }))}
              value={chosen}
              onChange={setAudienceId}
              allowDeselect={false}
              w={{ base: "100%", sm: 380 }}
            />
            <AuditRunPanel workspaceId={workspaceId} audienceId={chosen} />
          </Stack>
        )}
      </Paper>

      <Title order={2} size="h4">
        History
      </Title>
      <ListStates
        query={audits}
        items={audits.data?.audits}
        loading={<Skeleton h={160} />}
        empty={
          <EmptyState title="No audits yet">
            Each run is kept here with its date, so you can see your data improve.
          </EmptyState>
        }
      >
        {(rows) => (
          <DataTable
            minWidth={820}
            head={
              <>
                <Table.Th>When</Table.Th>
                <Table.Th>Audience</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Contacts</Table.Th>
                <Table.Th ta="right">Mailable</Table.Th>
                <Table.Th ta="right">Fixable</Table.Th>
                <Table.Th ta="right">Unmailable</Table.Th>
                <Table.Th ta="right">Accounts reachable</Table.Th>
              </>
            }
          >
            {rows.map((a) => (
              <Table.Tr key={a.auditId}>
                <Table.Td>
                  <Anchor component={Link} href={`/w/${workspaceId}/audits/${a.auditId}`} fw={600}>
                    {formatDateTime(a.createdAt)}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {a.audienceName}
                  {a.campaignName && (
                    <Text size="xs" c="dimmed">
                      for {a.campaignName}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <AuditStatusBadge status={a.status} />
                </Table.Td>
                <Table.Td ta="right">{a.status === "succeeded" ? formatNumber(a.contacts) : "–"}</Table.Td>
                <Table.Td ta="right">
                  {a.status === "succeeded" ? `${formatNumber(a.mailable)} (${pct(a.mailableShare)})` : "–"}
                </Table.Td>
                <Table.Td ta="right">{a.status === "succeeded" ? formatNumber(a.fixable) : "–"}</Table.Td>
                <Table.Td ta="right">{a.status === "succeeded" ? formatNumber(a.unmailable) : "–"}</Table.Td>
                <Table.Td ta="right">
                  {a.status === "succeeded"
                    ? `${formatNumber(a.accountsWithMailableContact)} of ${formatNumber(a.accounts)}`
                    : "–"}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListStates>
    </Stack>
  );
}
