"use client";

import { ENTRY_POLICY_WORDS } from "@/server/programme/campaigns/entry-policy-words";
import { SendToOne } from "./send-to-one";

import { ChartFigure } from "@/components/ui/chart-figure";
import { countChartProps } from "@/components/ui/chart-props";
import { StatCard } from "@/components/ui/stat-card";
import { DonutChart, BarChart } from "@mantine/charts";
import { Alert, Anchor, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState } from "react";
import { ENTRY_STATUSES } from "@/server/programme/entry/lifecycle-states";
import { piecePriceWords } from "@/server/programme/fulfilment/price-words";
import { formatCents, formatCount, formatDateTime, formatNumber } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { CampaignDrafts } from "@/components/drafts/campaign-drafts";
import { CampaignResponses } from "@/components/responses/campaign-responses";
import { GiftClaimLinks } from "@/components/responses/gift-claim-links";
import { responseSummary } from "@/server/programme/responses/page-settings";
import { CampaignActions, type Pending } from "./campaign-actions";
import { CampaignAudit } from "./campaign-audit";
import { CampaignReadiness } from "./campaign-readiness";
import { CampaignEventsTable } from "./campaign-events-table";
import { CampaignPiecesTable } from "./campaign-pieces-table";
import { CampaignStatusBadge, humanize } from "./status-badges";

export function CampaignDetail({ workspaceId, campaignId }: { workspaceId: string; campaignId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.campaign.get.queryOptions({ workspaceId, campaignId }, { refetchInterval: 10_000 }));
  const isDraft = query.data?.status === "draft";
  const readiness = useQuery({
    ...trpc.campaign.readiness.queryOptions({ workspaceId, campaignId }),
    enabled: isDraft,
  });
  const [pending, setPending] = useState<Pending>(null);
  if (query.isError) return <PageError message={query.error.message} onRetry={() => query.refetch()} />;
  // The events and pieces need only the campaign's id: they load beside the campaign, not after it
  // (keyed, so the same two stay mounted once it has loaded).
  const tables = (
    <Fragment key="tables">
      <CampaignEventsTable workspaceId={workspaceId} campaignId={campaignId} />
      <CampaignPiecesTable workspaceId={workspaceId} campaignId={campaignId} />
    </Fragment>
  );
  if (query.isPending) {
    return (
      <Stack gap="lg" maw={1200}>
        <Skeleton h={400} />
        {tables}
      </Stack>
    );
  }
  const c = query.data;
  const events = c.eventsByStatus;
  const total = Object.values(events).reduce((a, b) => a + b, 0);
  const noMail =
    c.plan !== "paid"
      ? "This workspace is on the free audit plan: nothing reaches a mailbox."
      : c.fulfilmentContract?.status !== "approved"
        ? "There is no approved fulfilment contract: nothing will be printed."
        : c.printerMode === "test"
          ? c.fulfilmentContract.vendor === "handwrytten"
            ? `${c.fulfilmentContract.name} writes through a Handwrytten account in test mode: Handwrytten accepts every note but writes and mails nothing.`
            : `${c.fulfilmentContract.name} prints through a Lob test key: Lob goes through every step but prints and mails nothing.`
          : null;

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Anchor component={Link} href={`/w/${workspaceId}/campaigns`} size="sm">
            Campaigns
          </Anchor>
          <Group gap="sm" mt={4}>
            <Title order={1} size="h2">
              {c.name}
            </Title>
            <CampaignStatusBadge status={c.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {c.format} · audience {c.audience?.name ?? "not chosen"} ({formatNumber(c.audience?._count.members ?? 0)}{" "}
            contacts) · {ENTRY_POLICY_WORDS[c.entryPolicy].toLowerCase()}
            {c.entryPolicy !== "none" && c.sendAt ? ` (sent ${formatDateTime(c.sendAt)})` : ""} ·{" "}
            {c.acceptsApiEvents ? "accepts" : "does not accept"} API entry events
            {c.wentLiveAt ? ` · live since ${formatDateTime(c.wentLiveAt)}` : ""}
          </Text>
          <Text size="sm" c="dimmed">
            {responseSummary(c)}
          </Text>
        </div>
        <CampaignActions
          workspaceId={workspaceId}
          campaign={c}
          pending={pending}
          setPending={setPending}
          blockers={readiness.data?.items.filter((i) => !i.ok).map((i) => i.label)}
        />
      </Group>

      {isDraft && (
        <CampaignReadiness
          workspaceId={workspaceId}
          readiness={readiness.data}
          onSetBudget={() => setPending("budget")}
        />
      )}
      {isDraft && (
        <CampaignAudit workspaceId={workspaceId} campaignId={c.id} hasAudience={!!c.audienceId} format={c.format} />
      )}

      {c.status === "live" && c.audienceId && (
        <SendToOne workspaceId={workspaceId} campaignId={c.id} audienceId={c.audienceId} />
      )}

      {noMail && !isDraft && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
          {noMail}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <StatCard
          label="Entry events"
          href="#events"
          value={formatNumber(total)}
          hint={`${formatNumber((events.waiting ?? 0) + (events.processing ?? 0) + (events.accepted ?? 0) + (events.enrolled ?? 0))} in progress`}
        />
        <StatCard
          label="Mailed"
          href="#pieces"
          value={formatNumber((c.piecesByStatus.mailed ?? 0) - c.simulatedMailed)}
          hint={
            c.simulatedMailed > 0
              ? `pieces handed to the post for real people; ${formatNumber(c.simulatedMailed)} more went through the sandbox or a test key and reached nobody`
              : "pieces handed to the post for real people"
          }
        />
        <StatCard
          label="Held out"
          href={c.status === "draft" ? undefined : `/w/${workspaceId}/campaigns/${c.id}/results`}
          value={formatCount(c.armAccounts.holdout, "account")}
          hint={`${formatNumber(c.heldOutContacts)} of their contacts in the audience; never mailed`}
        />
        <StatCard
          label="Skipped"
          href="#events"
          value={formatNumber(events.skipped ?? 0)}
          hint={
            Object.entries(c.skipsByReason)
              .map(([r, n]) => `${n} ${humanize(r)}`)
              .join(", ") || undefined
          }
        />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Spend against budget
          </Title>
          <Progress.Root size="xl">
            <Progress.Section
              value={c.budgetCents ? (c.spentCents / c.budgetCents) * 100 : 0}
              color="indigo"
              aria-label="Spent"
            />
            <Progress.Section
              value={c.budgetCents ? (c.reservedCents / c.budgetCents) * 100 : 0}
              color="indigo.2"
              aria-label="Held for pieces on their way"
            />
          </Progress.Root>
          <Stack gap={2} mt="sm">
            <Text size="sm">Spent {formatCents(c.spentCents)}</Text>
            <Text size="sm">Held for pieces on their way {formatCents(c.reservedCents)}</Text>
            <Text size="sm" fw={600}>
              Budget {formatCents(c.budgetCents)} · headroom{" "}
              {formatCents(Math.max(0, c.budgetCents - c.spentCents - c.reservedCents))}
            </Text>
            <Text size="xs" c="dimmed">
              {c.fulfilmentContract
                ? `${c.fulfilmentContract.name}: ${piecePriceWords(c.fulfilmentContract, formatCents)} (${c.fulfilmentContract.status}${c.printerMode === "test" ? ", test mode" : ""})`
                : "No fulfilment contract"}
            </Text>
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Arms (accounts)
          </Title>
          {c.armAccounts.treatment + c.armAccounts.holdout === 0 ? (
            <Text size="sm" c="dimmed">
              Assigned when the campaign goes live: {Math.round(c.holdoutShare * 100)}% of the accounts are held out.
            </Text>
          ) : (
            <Group wrap="nowrap">
              <ChartFigure
                label={`Treatment ${formatCount(c.armAccounts.treatment, "account")}, holdout ${formatCount(c.armAccounts.holdout, "account")}`}
              >
                <DonutChart
                  size={120}
                  thickness={22}
                  withTooltip
                  data={[
                    { name: "Treatment", value: c.armAccounts.treatment, color: "indigo.6" },
                    { name: "Holdout", value: c.armAccounts.holdout, color: "grape.4" },
                  ]}
                />
              </ChartFigure>
              <Stack gap={2}>
                <Text size="sm">Treatment: {formatCount(c.armAccounts.treatment, "account")}</Text>
                <Text size="xs" c="dimmed">
                  {formatNumber(c.measuredAccounts.treatment)} mailed so far
                </Text>
                <Text size="sm">Holdout: {formatCount(c.armAccounts.holdout, "account")}</Text>
                <Text size="xs" c="dimmed">
                  {formatNumber(c.measuredAccounts.holdout)} entered and held out so far
                </Text>
                <Text size="xs" c="dimmed">
                  Frozen at go-live ({Math.round(c.holdoutShare * 100)}% held out)
                </Text>
              </Stack>
            </Group>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Events by status
          </Title>
          {total === 0 ? (
            <Text size="sm" c="dimmed">
              No events yet.
            </Text>
          ) : (
            <ChartFigure
              label={ENTRY_STATUSES.filter((s) => events[s])
                .map((s) => `${humanize(s)} ${events[s]}`)
                .join(", ")}
            >
              <BarChart
                {...countChartProps}
                h={150}
                data={ENTRY_STATUSES.filter((s) => events[s]).map((s) => ({ status: humanize(s), Events: events[s] }))}
                dataKey="status"
                series={[{ name: "Events", color: "indigo.6" }]}
                tickLine="none"
                gridAxis="none"
              />
            </ChartFigure>
          )}
        </Paper>
      </SimpleGrid>

      <CampaignDrafts workspaceId={workspaceId} campaignId={campaignId} isDraft={c.status === "draft"} />
      {c.status !== "draft" && c.responseMode === "gift_claim" && (
        <GiftClaimLinks workspaceId={workspaceId} campaignId={campaignId} />
      )}
      {c.status !== "draft" && (
        <CampaignResponses
          workspaceId={workspaceId}
          campaignId={campaignId}
          responseMode={c.responseMode}
          callToAction={c.pageCallToAction}
        />
      )}
      {tables}
    </Stack>
  );
}
