"use client";

import { ChartFigure } from "@/components/ui/chart-figure";
import { BarChart } from "@mantine/charts";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconAlertTriangle, IconUpload } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { Verdict } from "@/server/programme/holdouts/results";
import { formatCents, formatCount, formatNumber } from "@/components/ui/format";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { responseKindLabels } from "@/server/programme/responses/kinds";
import { humanize } from "../campaigns/status-badges";
import { ImportOutcomesModal } from "./import-outcomes-modal";
import { AlwaysValidLiftCell, TwoIntervalsNote } from "./always-valid-lift";
import { CostPerOutcome } from "./cost-per-outcome";
import { IfCan } from "@/components/access/role";

/** The actions a campaign's kind of page offers (others show only once they happened). */
const PAGE_KINDS: Record<string, string[]> = {
  landing_page: ["page_view", "meeting_click", "site_click"],
  gift_claim: ["page_view", "gift_claim", "address_change", "gift_decline"],
};
const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const signedPct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
const verdictColor: Record<Verdict, string> = {
  lift: "teal",
  negative: "red",
  no_detectable_lift: "gray",
  not_enough_data: "yellow",
  not_measurable: "orange",
};
const verdictLabel: Record<Verdict, string> = {
  lift: "Lift",
  negative: "Negative",
  no_detectable_lift: "No detectable lift",
  not_enough_data: "Not enough data yet",
  not_measurable: "Not measurable",
};

/** "From the CRM: 120 (120 synced) · CSV: 3 · API: 4 · Hosted page: 2": where a kind's counted outcomes came from. */
function sourceLine(s: { crm: number; crmSynced: number; csv: number; reported: number; observed: number }): string {
  const parts = [];
  if (s.crm)
    parts.push(
      `From the CRM: ${formatNumber(s.crm)}${s.crmSynced ? (s.crmSynced === s.crm ? " (synced)" : ` (${formatNumber(s.crmSynced)} synced)`) : ""}`,
    );
  if (s.csv) parts.push(`CSV: ${formatNumber(s.csv)}`);
  if (s.reported) parts.push(`API: ${formatNumber(s.reported)}`);
  if (s.observed) parts.push(`Hosted page: ${formatNumber(s.observed)}`);
  return parts.join(" · ") || "No outcomes in the window";
}

export function CampaignResults({ workspaceId, campaignId }: { workspaceId: string; campaignId: string }) {
  const trpc = useTRPC();
  const results = useQuery(trpc.results.campaign.queryOptions({ workspaceId, campaignId }));
  const [importing, { open, close }] = useDisclosure(false);
  if (results.isPending) return <Skeleton h={420} />;
  if (results.isError) return <PageError message={results.error.message} onRetry={() => results.refetch()} />;
  const r = results.data;
  const measurable = r.kinds.filter((k) => k.verdict !== "not_measurable");

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Anchor component={Link} href={`/w/${workspaceId}/campaigns/${campaignId}`} size="sm">
            {r.campaign.name}
          </Anchor>
          <Title order={1} size="h2">
            Results
          </Title>
          <Text size="sm" c="dimmed">
            Treated against held-out accounts. An outcome counts within {r.attributionWindowDays} days after the
            account&apos;s first piece was mailed (for held-out accounts, after they were held out).
          </Text>
        </div>
        <IfCan action="prepare">
          <Button leftSection={<IconUpload size={16} />} variant="default" onClick={open}>
            Import outcomes…
          </Button>
        </IfCan>
      </Group>

      {r.simulatedPieces > 0 && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Nobody was really mailed">
          {formatCount(r.simulatedPieces, "piece")} of this campaign went through the sandbox or a printer&apos;s test
          key: every step ran, but nothing reached a mailbox. Treat these results as a rehearsal.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Treated accounts
          </Text>
          <Text fz={26} fw={700}>
            {formatNumber(r.arms.treatment)}
          </Text>
          <Text size="xs" c="dimmed">
            mailed, of {formatNumber(r.assigned.treatment)} assigned at go-live
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Held-out accounts
          </Text>
          <Text fz={26} fw={700}>
            {formatNumber(r.arms.holdout)}
          </Text>
          <Text size="xs" c="dimmed">
            entered and held out, of {formatNumber(r.assigned.holdout)} assigned · planned{" "}
            {pct(r.campaign.holdoutShare, 0)}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Responded
          </Text>
          <Text fz={26} fw={700}>
            {pct(r.responses.rate)}
          </Text>
          <Text size="xs" c="dimmed">
            of {formatCount(r.responses.reachedAccounts, "account")} reached · {formatCount(r.responses.scans, "scan")},{" "}
            {formatCount(r.responses.clicks, "click")}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Split check
          </Text>
          {r.arms.treatment + r.arms.holdout === 0 ? (
            <>
              <Badge color="gray" variant="light" mt={6}>
                No data
              </Badge>
              <Text size="xs" c="dimmed" mt={4}>
                No account is in either arm yet.
              </Text>
            </>
          ) : (
            <>
              <Badge
                color={r.sampleRatio.mismatch ? "red" : "teal"}
                variant="light"
                mt={6}
                h="auto"
                styles={{ label: { whiteSpace: "normal", overflow: "visible" } }}
              >
                {r.sampleRatio.mismatch ? "Sample-ratio mismatch" : "Arms fit the plan"}
              </Badge>
              <Text size="xs" c="dimmed" mt={4}>
                χ² = {r.sampleRatio.chiSquare.toFixed(2)}, p = {r.sampleRatio.pValue.toPrecision(2)}
              </Text>
            </>
          )}
        </Paper>
      </SimpleGrid>

      {r.sampleRatio.mismatch && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title="The arms do not match the planned holdout share"
        >
          A split this far from the plan points to broken assignment or missing data, not to an effect of mail. Fix that
          before trusting the lift below.
        </Alert>
      )}

      {(r.campaign.responseMode !== "redirect" || r.responses.pageActions.some((a) => a.count > 0)) && (
        <Paper withBorder p="md">
          <Title order={2} size="h4">
            On the hosted page
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            What recipients did on their page, observed by the service: each rate is the share of the{" "}
            {formatCount(r.responses.reachedAccounts, "account")} reached (mailed, or offered a gift to claim).{" "}
            {r.campaign.responseMode === "landing_page"
              ? " A reply sent on the page counts as the outcome “reply” below."
              : ""}
          </Text>
          <DataTable
            minWidth={520}
            variant="compact"
            highlightOnHover={false}
            head={
              <>
                <Table.Th>Action</Table.Th>
                <Table.Th ta="right">Times</Table.Th>
                <Table.Th ta="right">Accounts</Table.Th>
                <Table.Th ta="right">Rate</Table.Th>
              </>
            }
          >
            {r.responses.pageActions
              .filter((a) => a.count > 0 || (PAGE_KINDS[r.campaign.responseMode] ?? []).includes(a.kind))
              .map((a) => (
                <Table.Tr key={a.kind}>
                  <Table.Td>{responseKindLabels[a.kind]}</Table.Td>
                  <Table.Td ta="right">{formatNumber(a.count)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(a.accounts)}</Table.Td>
                  <Table.Td ta="right">{pct(a.rate)}</Table.Td>
                </Table.Tr>
              ))}
          </DataTable>
        </Paper>
      )}

      {r.arms.treatment + r.arms.holdout === 0 ? (
        <EmptyState title="No accounts in the test yet">
          Accounts enter the arms as the campaign mails their pieces or holds them out.
        </EmptyState>
      ) : r.kinds.length === 0 ? (
        <EmptyState
          title="No outcomes yet"
          action={
            <IfCan action="prepare">
              <Button onClick={open}>Import outcomes</Button>
            </IfCan>
          }
        >
          Connect your CRM in Settings → CRM to sync opportunities and closed-won deals, import outcomes (meetings,
          opportunities, pipeline, closed-won) for all accounts from a file, or report conversions against sids through
          the API.
        </EmptyState>
      ) : (
        <>
          {measurable.length > 0 && (
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Conversion rate by arm
              </Title>
              <ChartFigure
                label={measurable
                  .map((k) => `${humanize(k.kind)}: treated ${pct(k.treatedRate)}, held out ${pct(k.holdoutRate)}`)
                  .join("; ")}
              >
                <BarChart
                  h={260}
                  data={measurable.map((k) => ({
                    kind: humanize(k.kind),
                    Treated: Math.round(k.treatedRate * 1000) / 10,
                    "Held out": Math.round(k.holdoutRate * 1000) / 10,
                  }))}
                  dataKey="kind"
                  series={[
                    { name: "Treated", color: "indigo.6" },
                    { name: "Held out", color: "grape.4" },
                  ]}
                  unit="%"
                  withLegend
                />
              </ChartFigure>
            </Paper>
          )}
          <DataTable
            minWidth={1200}
            highlightOnHover={false}
            head={
              <>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>Treated</Table.Th>
                <Table.Th>Held out</Table.Th>
                <Table.Th>Lift (95% interval)</Table.Th>
                <Table.Th>p-value</Table.Th>
                <Table.Th>Accounts needed</Table.Th>
                <Table.Th>Verdict</Table.Th>
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
                  <Text size="xs" c="dimmed">
                    {sourceLine(k.sources)}
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
                    {k.holdoutObservable
                      ? `${k.holdout.converted} of ${formatNumber(k.holdout.accounts)}`
                      : "not reported for held-out accounts"}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {k.holdoutObservable ? (
                    <>
                      {signedPct(k.absoluteLift)} pts ({signedPct(k.absoluteLiftCi[0])} to{" "}
                      {signedPct(k.absoluteLiftCi[1])})
                      <Text size="xs" c="dimmed">
                        {k.relativeLift !== null && k.relativeLiftCi
                          ? `relative ${signedPct(k.relativeLift)} (${signedPct(k.relativeLiftCi[0])} to ${signedPct(k.relativeLiftCi[1])})`
                          : "relative lift undefined (an arm has none)"}
                      </Text>
                    </>
                  ) : (
                    "n/a"
                  )}
                </Table.Td>
                <Table.Td>{k.holdoutObservable ? k.pValue.toPrecision(2) : "n/a"}</Table.Td>
                <Table.Td>
                  {k.required ? (
                    <Tooltip
                      label={`To detect a ${pct(k.required.plannedLift, 0)} relative lift at this baseline with 80% power`}
                      withArrow
                    >
                      <Text size="sm" tabIndex={0}>
                        {formatNumber(k.required.holdout)} held out / {formatNumber(k.required.treated)} treated
                      </Text>
                    </Tooltip>
                  ) : (
                    <Text size="sm" c="dimmed">
                      no baseline yet
                    </Text>
                  )}
                </Table.Td>
                <Table.Td miw={220} maw={300}>
                  <Badge
                    color={verdictColor[k.verdict]}
                    variant="light"
                    h="auto"
                    py={2}
                    styles={{ label: { whiteSpace: "normal", overflow: "visible" } }}
                  >
                    {verdictLabel[k.verdict]}
                  </Badge>
                  <Text size="xs" mt={4}>
                    {k.explanation}
                  </Text>
                </Table.Td>
                <Table.Td miw={220} maw={300}>
                  <AlwaysValidLiftCell av={k.alwaysValid} />
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <TwoIntervalsNote />
          <CostPerOutcome spendCents={r.spendCents} kinds={r.kinds} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {r.kinds
              .filter((k) => k.money && k.holdoutObservable)
              .map((k) => (
                <Paper key={k.kind} withBorder p="md">
                  <Title order={2} size="h4">
                    Incremental {k.kind === "closed_won" ? "closed-won" : "pipeline"}
                  </Title>
                  {!k.money!.significant ? (
                    <>
                      <Text fz={26} fw={700}>
                        Not significant
                      </Text>
                      <Text size="sm">
                        The estimate of {formatCents(Math.round(k.money!.total))} cannot be told apart from no effect:
                        its interval includes $0.
                      </Text>
                    </>
                  ) : (
                    <Text fz={26} fw={700}>
                      {formatCents(Math.round(k.money!.total))}
                    </Text>
                  )}
                  <Text size="sm" c="dimmed">
                    95% interval {formatCents(Math.round(k.money!.totalCi[0]))} to{" "}
                    {formatCents(Math.round(k.money!.totalCi[1]))}; {formatCents(Math.round(k.money!.meanTreated))} per
                    treated account against {formatCents(Math.round(k.money!.meanHoldout))} per held-out account.
                  </Text>
                </Paper>
              ))}
          </SimpleGrid>
        </>
      )}
      <ImportOutcomesModal workspaceId={workspaceId} opened={importing} onClose={close} />
    </Stack>
  );
}
