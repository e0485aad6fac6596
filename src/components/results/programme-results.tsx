"use client";

import { Anchor, Badge, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatCents, formatNumber } from "@/components/ui/format";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { CampaignStatusBadge, humanize } from "../campaigns/status-badges";
import { AlwaysValidLiftCell } from "./always-valid-lift";
import { CostPerOutcome } from "./cost-per-outcome";
import { ProgrammeHoldoutForm } from "./programme-holdout-form";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pts = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;

/**
 * The programme across campaigns: every account any campaign mailed against the programme
 * holdout's accounts, per outcome kind, with the spend of every campaign and what each incremental
 * outcome cost; and the programme holdout's share.
 */
export function ProgrammeResults({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const results = useQuery(trpc.results.programme.queryOptions({ workspaceId }));
  if (results.isPending) return <Skeleton h={420} />;
  if (results.isError) return <PageError message={results.error.message} onRetry={() => results.refetch()} />;
  const r = results.data;
  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Anchor component={Link} href={`/w/${workspaceId}/campaigns`} size="sm">
          Campaigns
        </Anchor>
        <Title order={1} size="h2">
          Programme results
        </Title>
        <Text size="sm" c="dimmed">
          All mail against none: every account a campaign mailed, against the accounts the programme holdout kept from
          every campaign. An outcome counts within {r.attributionWindowDays} days after the account&apos;s first mailed
          piece (held out: after a campaign first held it out).
        </Text>
      </div>
      <ProgrammeHoldoutForm workspaceId={workspaceId} share={r.programmeHoldoutShare} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Mailed accounts
          </Text>
          <Text fz={26} fw={700}>
            {formatNumber(r.arms.treatment)}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Held out by the programme
          </Text>
          <Text fz={26} fw={700}>
            {formatNumber(r.arms.holdout)}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Spent
          </Text>
          <Text fz={26} fw={700}>
            {formatCents(r.spendCents)}
          </Text>
        </Paper>
      </SimpleGrid>
      {r.arms.holdout === 0 ? (
        <EmptyState title="No programme holdout to compare with yet">
          Set a share above: campaigns then hold those accounts out as they enter them, and the programme&apos;s lift
          appears here once outcomes arrive from your CRM or an outcomes file.
        </EmptyState>
      ) : r.kinds.length === 0 ? (
        <EmptyState title="No outcomes yet">
          Outcomes come from your CRM (Settings → CRM) or an outcomes file imported on a campaign&apos;s results page.
        </EmptyState>
      ) : (
        <>
          <DataTable
            minWidth={900}
            highlightOnHover={false}
            head={
              <>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>Mailed</Table.Th>
                <Table.Th>Held out</Table.Th>
                <Table.Th>Lift (95% interval)</Table.Th>
                <Table.Th>Any time (95%)</Table.Th>
              </>
            }
          >
            {r.kinds.map((k) => (
              <Table.Tr key={k.kind}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {humanize(k.kind)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {pct(k.treatedRate)}
                  <Text size="xs" c="dimmed">
                    {k.treated.converted} of {formatNumber(k.treated.accounts)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {k.holdoutObservable ? pct(k.holdoutRate) : "n/a"}
                  <Text size="xs" c="dimmed">
                    {k.holdout.converted} of {formatNumber(k.holdout.accounts)}
                  </Text>
                </Table.Td>
                <Table.Td maw={300}>
                  {k.holdoutObservable
                    ? `${pts(k.absoluteLift)} pts (${pts(k.absoluteLiftCi[0])} to ${pts(k.absoluteLiftCi[1])})`
                    : "n/a"}
                  <Text size="xs">{k.explanation}</Text>
                </Table.Td>
                <Table.Td miw={220} maw={300}>
                  <AlwaysValidLiftCell av={k.alwaysValid} />
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <CostPerOutcome spendCents={r.spendCents} kinds={r.kinds} />
        </>
      )}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Campaigns
        </Title>
        {r.campaigns.length === 0 ? (
          <Text size="sm" c="dimmed">
            No campaign has gone live yet.
          </Text>
        ) : (
          <DataTable
            minWidth={640}
            head={
              <>
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Pieces mailed</Table.Th>
                <Table.Th ta="right">Held out by the programme</Table.Th>
                <Table.Th ta="right">Spent</Table.Th>
              </>
            }
          >
            {r.campaigns.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} href={`/w/${workspaceId}/campaigns/${c.id}/results`} size="sm">
                    {c.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <CampaignStatusBadge status={c.status} />
                </Table.Td>
                <Table.Td ta="right">{formatNumber(c.piecesMailed)}</Table.Td>
                <Table.Td ta="right">
                  {c.heldOutByProgramme > 0 ? <Badge variant="light">{formatNumber(c.heldOutByProgramme)}</Badge> : 0}
                </Table.Td>
                <Table.Td ta="right">{formatCents(c.spendCents)}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Paper>
    </Stack>
  );
}
