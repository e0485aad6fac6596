"use client";

import { BarChart } from "@mantine/charts";
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { JobProgress } from "@/components/jobs/job-progress";
import { ChartFigure } from "@/components/ui/chart-figure";
import { countAxisProps } from "@/components/ui/chart-props";
import { DataTable } from "@/components/ui/data-table";
import { formatCents, formatCount, formatDateTime, formatNumber } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { formatPlural } from "@/server/ground/render/format-words";
import { StatCard } from "@/components/ui/stat-card";
import { isInformational, MAILABILITY_REASONS, REASON_LABELS } from "@/server/programme/mailability/reasons";
import { useTRPC } from "@/trpc/react";
import { AuditProblems } from "./audit-problems";
import { AuditStatusBadge } from "./audit-status-badge";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const people = (n: number) => `${formatNumber(n)} ${n === 1 ? "contact" : "contacts"}`;
/** Bars of reasons that stop mail, and of reasons that only inform (the table says "informational" of the same ones). */
const BLOCKING_BAR = "red.8";
const INFORMATIONAL_BAR = "gray.6";
const BLOCK_LABELS: Record<string, string> = {
  "postcard 4x6": "a 4 × 6 in postcard",
  "postcard 6x9": "a 6 × 9 in postcard",
  "postcard 6x11": "a 6 × 11 in postcard",
  "letter us_letter": "a US Letter's window",
  "letter a4": "an A4 letter's window",
  "handwritten 5x7": "a note's A7 envelope",
  "gift 4x6": "a gift's label",
};

/** One audit: its progress while it runs, then the figures, reasons as a chart, countries, cost, and the contacts to fix. */
export function AuditReport({ workspaceId, auditId }: { workspaceId: string; auditId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const audit = useQuery({
    ...trpc.mailability.get.queryOptions({ workspaceId, auditId }),
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === "queued" || q.state.data.status === "running") ? 2000 : false,
  });
  const resume = useMutation(
    trpc.mailability.resume.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.mailability.pathKey() }),
      onError: (err) => notifications.show({ color: "red", title: "The audit did not resume", message: err.message }),
    }),
  );
  if (audit.isPending) return <Skeleton h={400} />;
  if (audit.isError) return <PageError message={audit.error.message} onRetry={() => audit.refetch()} />;
  const a = audit.data;
  const reasons = MAILABILITY_REASONS.filter((r) => a.reasons[r]).map((r) => ({
    reason: r,
    Contacts: a.reasons[r]!,
    informational: isInformational(r, a.format),
  }));
  const block =
    BLOCK_LABELS[`${a.addressBlock.format} ${a.addressBlock.size}`] ??
    `${a.addressBlock.format} ${a.addressBlock.size}`;

  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Anchor component={Link} href={`/w/${workspaceId}/audits`} size="sm">
          Mailability audit
        </Anchor>
        <Title order={1} size="h2" mt={4}>
          {a.audienceName}
          {a.campaignName ? ` for ${a.campaignName}` : ""}
        </Title>
        <Text size="sm" c="dimmed">
          Started {formatDateTime(a.createdAt)} by {a.requestedBy} · <AuditStatusBadge status={a.status} />
        </Text>
      </div>

      {(a.status === "queued" || a.status === "running") && a.jobId && (
        <JobProgress
          workspaceId={workspaceId}
          jobId={a.jobId}
          onFinished={() => void queryClient.invalidateQueries({ queryKey: trpc.mailability.pathKey() })}
        />
      )}
      {(a.status === "failed" || a.status === "cancelled") && (
        <Alert
          color={a.status === "failed" ? "red" : "orange"}
          title={a.status === "failed" ? "The audit failed" : "The audit was cancelled"}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {a.status === "failed"
                ? a.error
                : "It has no figures yet. Resume it to finish from where it stopped; the contacts it already judged are kept."}
            </Text>
            <Button size="xs" loading={resume.isPending} onClick={() => resume.mutate({ workspaceId, auditId })}>
              Resume from where it stopped
            </Button>
          </Stack>
        </Alert>
      )}

      {a.status === "succeeded" && (
        <>
          <Text size="sm">
            {a.campaignName ? `Judged for the campaign's ${formatPlural(a.format)}` : "Judged for any format"}:
            addresses measured against {block}'s address block
            {a.format === "gift" ? "; PO boxes cannot receive gifts" : "; PO boxes inform only (they stop gifts)"}.{" "}
            {!a.verification
              ? "Run without address verification."
              : a.verification.mode === "live" || a.verification.mode === null
                ? `Addresses verified with ${a.verification.verifier}: ${formatNumber(a.verification.made)} verified for ${formatCents(a.verification.costCents)} (estimated ${formatCents(a.verification.estimateCents)}), ${formatNumber(a.verification.cached)} answered from the cache.`
                : `Addresses sent to ${a.verification.mode === "test" ? `${a.verification.verifier} with a test key` : "the sandbox verifier"}: ${formatNumber(a.verification.made)} sent, ${formatNumber(a.verification.cached)} answered from the cache.`}
          </Text>
          {a.verification && (a.verification.mode === "test" || a.verification.mode === "sandbox") && (
            <Alert
              color="yellow"
              icon={<IconInfoCircle size={18} />}
              title={a.verification.mode === "test" ? "Not verified (test mode)" : "Not verified (sandbox)"}
            >
              {a.verification.mode === "test"
                ? "A test key looks nothing up: the vendor answers only its documented test addresses."
                : "The sandbox verifier looks nothing up: it answers only addresses that name a test result (\u201cundeliverable\u201d, \u201cmissing unit\u201d)."}{" "}
              {formatNumber(a.verification.notVerified)} of the contacts' addresses are not verified; none of them is
              counted undeliverable for it. Connect a live key to verify addresses.
            </Alert>
          )}
          {a.coveredCountries === null && (
            <Alert color="gray" icon={<IconInfoCircle size={18} />}>
              No printer was approved{a.campaignName ? ` for ${formatPlural(a.format)}` : ""} when it ran, so countries
              were not checked against one (the reason “No approved printer mails to the country” needs an approved
              printer).
            </Alert>
          )}
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <StatCard
              label="Contacts"
              value={a.contacts}
              href={a.audienceId ? `/w/${workspaceId}/audiences/${a.audienceId}` : undefined}
            />
            <StatCard label="Mailable" value={pct(a.mailableShare)} hint={people(a.mailable)} />
            <StatCard
              label="Fixable"
              value={pct(a.fixableShare)}
              hint={`${people(a.fixable)}; a likely correction exists`}
              href="#problems"
            />
            <StatCard label="Unmailable" value={pct(a.unmailableShare)} hint={people(a.unmailable)} href="#problems" />
            <StatCard
              label="Accounts reachable"
              value={`${formatNumber(a.accountsWithMailableContact)} of ${formatNumber(a.accounts)}`}
              hint="with a mailable contact (holdouts are per account)"
            />
          </SimpleGrid>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Contacts per reason
              </Title>
              {reasons.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No contact has a reason.
                </Text>
              ) : (
                <>
                  <ChartFigure
                    label={reasons
                      .map(
                        (r) =>
                          `${REASON_LABELS[r.reason]}${r.informational && !REASON_LABELS[r.reason].includes("(informational)") ? " (informational)" : ""}: ${r.Contacts}`,
                      )
                      .join(", ")}
                  >
                    <BarChart
                      h={Math.max(160, reasons.length * 34)}
                      data={reasons.map((r) => ({
                        reason: r.reason.replaceAll("_", " "),
                        Contacts: r.Contacts,
                        color: r.informational ? INFORMATIONAL_BAR : BLOCKING_BAR,
                      }))}
                      dataKey="reason"
                      orientation="vertical"
                      series={[{ name: "Contacts", color: BLOCKING_BAR }]}
                      yAxisProps={{ width: 140 }}
                      xAxisProps={countAxisProps}
                      valueFormatter={(v: number) => formatNumber(v)}
                      gridAxis="none"
                    />
                  </ChartFigure>
                  <Group
                    gap="md"
                    mt="xs"
                    component="ul"
                    style={{ listStyle: "none", padding: 0, margin: 0 }}
                    aria-label="Legend"
                  >
                    {reasons.some((r) => !r.informational) && (
                      <Group gap={6} component="li" wrap="nowrap">
                        <Box w={12} h={12} bg={BLOCKING_BAR} style={{ borderRadius: 2, flex: "none" }} aria-hidden />
                        <Text size="xs">Stops the mail</Text>
                      </Group>
                    )}
                    {reasons.some((r) => r.informational) && (
                      <Group gap={6} component="li" wrap="nowrap">
                        <Box
                          w={12}
                          h={12}
                          bg={INFORMATIONAL_BAR}
                          style={{ borderRadius: 2, flex: "none" }}
                          aria-hidden
                        />
                        <Text size="xs">Informational: does not stop the mail</Text>
                      </Group>
                    )}
                  </Group>
                </>
              )}
            </Paper>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Per country
              </Title>
              <DataTable
                variant="compact"
                minWidth={320}
                head={
                  <>
                    <Table.Th>Country</Table.Th>
                    <Table.Th ta="right">Contacts</Table.Th>
                    <Table.Th ta="right">Mailable</Table.Th>
                  </>
                }
              >
                {a.byCountry.slice(0, 12).map((c) => (
                  <Table.Tr key={c.country ?? "none"}>
                    <Table.Td>{c.country ?? "None given"}</Table.Td>
                    <Table.Td ta="right">{formatNumber(c.contacts)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(c.mailable)}</Table.Td>
                  </Table.Tr>
                ))}
              </DataTable>
              <Title order={3} size="h5" mt="md" mb={4}>
                Cost of mailing the mailable contacts once
              </Title>
              {a.costs.length ? (
                a.costs.map((c) => (
                  <Text size="sm" key={c.format}>
                    As {formatPlural(c.format)}: {formatCents(c.totalCents)} for {formatCount(c.contacts, "contact")}{" "}
                    (from {formatCents(c.unitCostCents)} a piece, each at its country&apos;s price)
                    {c.uncovered
                      ? `; ${formatNumber(c.uncovered)} more are in countries no approved ${c.format} printer mails to`
                      : ""}
                    .
                  </Text>
                ))
              ) : (
                <Text size="sm" c="dimmed">
                  Approve a printer in Settings → Printing to see what mailing them would cost.
                </Text>
              )}
            </Paper>
          </SimpleGrid>

          <AuditProblems workspaceId={workspaceId} auditId={auditId} fixable={a.fixable} format={a.format} />
        </>
      )}
    </Stack>
  );
}
