"use client";

import { BarChart } from "@mantine/charts";
import { Alert, Anchor, Badge, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconInfoCircle } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ChartFigure } from "@/components/ui/chart-figure";
import { countAxisProps } from "@/components/ui/chart-props";
import { DataTable } from "@/components/ui/data-table";
import { formatCents, formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates, PageError } from "@/components/ui/page-states";
import { StatCard } from "@/components/ui/stat-card";
import { MAILABILITY_REASONS, REASON_LABELS, type TMailabilityReason } from "@/server/mailability/reasons";
import { useTRPC } from "@/trpc/react";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const statusColor = { mailable: "teal", fixable: "yellow", unmailable: "red" } as const;

/** One audit: the figures, reasons as a chart, countries, cost, and the contacts to fix. */
export function AuditReport({ workspaceId, auditId }: { workspaceId: string; auditId: string }) {
  const trpc = useTRPC();
  const audit = useQuery(trpc.mailability.get.queryOptions({ workspaceId, auditId }));
  if (audit.isPending) return <Skeleton h={400} />;
  if (audit.isError) return <PageError message={audit.error.message} onRetry={() => audit.refetch()} />;
  const a = audit.data;
  const reasons = MAILABILITY_REASONS.filter((r) => a.reasons[r]).map((r) => ({ reason: r, Contacts: a.reasons[r]! }));

  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Anchor component={Link} href={`/w/${workspaceId}/audits`} size="sm">
          Mailability audit
        </Anchor>
        <Title order={1} size="h2" mt={4}>
          {a.audienceName}
        </Title>
        <Text size="sm" c="dimmed">
          Audited {formatDateTime(a.createdAt)} by {a.requestedBy}
        </Text>
      </div>
      {a.coveredCountries === null && (
        <Alert color="gray" icon={<IconInfoCircle size={18} />}>
          No printer is approved yet, so countries were not checked against one (the reason “unsupported country” needs an approved printer).
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, md: 5 }}>
        <StatCard label="Contacts" value={a.contacts} href={a.audienceId ? `/w/${workspaceId}/audiences/${a.audienceId}` : undefined} />
        <StatCard label="Mailable" value={pct(a.mailableShare)} hint={`${formatNumber(a.mailable)} contacts`} />
        <StatCard label="Fixable" value={a.fixable} hint="a likely correction exists" href="#problems" />
        <StatCard label="Unmailable" value={pct(a.unmailableShare)} hint={`${formatNumber(a.unmailable)} contacts`} href="#problems" />
        <StatCard label="Accounts reachable" value={`${formatNumber(a.accountsWithMailableContact)} of ${formatNumber(a.accounts)}`} hint="with a mailable contact (holdouts are per account)" />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Contacts per reason
          </Title>
          {reasons.length === 0 ? (
            <Text size="sm" c="dimmed">
              No contact has a problem.
            </Text>
          ) : (
            <ChartFigure label={reasons.map((r) => `${REASON_LABELS[r.reason]}: ${r.Contacts}`).join(", ")}>
              <BarChart
                h={Math.max(160, reasons.length * 34)}
                data={reasons.map((r) => ({ ...r, reason: r.reason.replaceAll("_", " ") }))}
                dataKey="reason"
                orientation="vertical"
                series={[{ name: "Contacts", color: "red.7" }]}
                yAxisProps={{ width: 140 }}
                xAxisProps={countAxisProps}
                valueFormatter={(v: number) => formatNumber(v)}
                gridAxis="none"
              />
            </ChartFigure>
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
          <Text size="sm" mt="sm">
            {a.costs.length
              ? a.costs.map((c) => `Mailing the ${formatNumber(a.mailable)} mailable contacts once as ${c.format}s: ${formatCents(c.totalCents)} (${formatCents(c.unitCostCents)} a piece).`).join(" ")
              : "Approve a printer in Settings → Printing to see what mailing them would cost."}
          </Text>
        </Paper>
      </SimpleGrid>

      <Problems workspaceId={workspaceId} auditId={auditId} />
    </Stack>
  );
}

function Problems({ workspaceId, auditId }: { workspaceId: string; auditId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<TMailabilityReason | null>(null);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const problems = useQuery(trpc.mailability.problems.queryOptions({ workspaceId, auditId, reason, cursor: cursors[cursors.length - 1], take: 25 }, { placeholderData: (prev) => prev }));
  const [fixed, setFixed] = useState<Set<string>>(new Set());
  const fix = useMutation(
    trpc.mailability.applyFix.mutationOptions({
      onSuccess: (r) => {
        setFixed((s) => new Set(s).add(r.contactId));
        void queryClient.invalidateQueries({ queryKey: trpc.mailability.contact.pathKey() });
      },
      onError: (err) => notifications.show({ color: "red", title: "Not fixed", message: err.message }),
    }),
  );
  const pendingFixes = (problems.data?.items ?? []).filter((i) => i.suggestion && !fixed.has(i.contactId));
  const fixAll = async () => {
    for (const i of pendingFixes) await fix.mutateAsync({ workspaceId, contactId: i.contactId }).catch(() => undefined);
    notifications.show({ color: "teal", title: "Fixes accepted", message: "Run the audit again to see the new figures." });
  };

  return (
    <Paper withBorder p="md" id="problems">
      <Group justify="space-between" mb="sm" align="flex-end">
        <Title order={2} size="h4">
          Contacts to fix
        </Title>
        <Group align="flex-end">
          <Select
            label="Reason"
            placeholder="Every reason"
            clearable
            data={MAILABILITY_REASONS.map((r) => ({ value: r, label: REASON_LABELS[r] }))}
            value={reason}
            onChange={(v) => {
              setReason(v as TMailabilityReason | null);
              setCursors([null]);
            }}
            w={{ base: "100%", sm: 320 }}
          />
          <Button
            variant="default"
            component="a"
            href={`/api/audits/${auditId}/problems.csv?workspaceId=${workspaceId}${reason ? `&reason=${reason}` : ""}`}
            download
          >
            Export CSV
          </Button>
          <Button variant="light" disabled={pendingFixes.length === 0} loading={fix.isPending} onClick={fixAll}>
            Accept {pendingFixes.length} suggested {pendingFixes.length === 1 ? "fix" : "fixes"} on this page
          </Button>
        </Group>
      </Group>
      <ListStates
        query={problems}
        items={problems.data?.items}
        loading={<Skeleton h={200} />}
        empty={<EmptyState title={reason ? "No contact has this reason" : "Nothing to fix"}>{reason ? "Choose another reason, or every reason." : "Every contact of the audience can be mailed."}</EmptyState>}
      >
        {(rows) => (
          <>
            <DataTable
              minWidth={860}
              head={
                <>
                  <Table.Th>Contact</Table.Th>
                  <Table.Th>Address as audited</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Reasons</Table.Th>
                  <Table.Th>Suggested fix</Table.Th>
                </>
              }
            >
              {rows.map((r) => (
                <Table.Tr key={r.contactId}>
                  <Table.Td>
                    <Anchor component={Link} href={`/w/${workspaceId}/contacts/${r.contactId}`} fw={600}>
                      {[r.contact.firstName, r.contact.lastName].filter(Boolean).join(" ") || r.contact.email || r.contactId}
                    </Anchor>
                    {r.contact.company && (
                      <Text size="xs" c="dimmed">
                        {r.contact.company}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{[r.contact.addressLine1, r.contact.addressLine2, r.contact.city, r.contact.region, r.contact.postalCode, r.contact.country].filter(Boolean).join(", ") || "No address"}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[r.status]} variant="light">
                      {r.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.reasons.map((x) => REASON_LABELS[x as TMailabilityReason]).join("; ")}</Text>
                  </Table.Td>
                  <Table.Td>
                    {r.suggestion ? (
                      fixed.has(r.contactId) ? (
                        <Text size="sm" c="teal.9" fw={600}>
                          Postal code now {r.suggestion.postalCode}
                        </Text>
                      ) : (
                        <Button size="xs" variant="light" onClick={() => fix.mutate({ workspaceId, contactId: r.contactId })} aria-label={`Accept postal code ${r.suggestion.postalCode} for ${r.contact.firstName} ${r.contact.lastName}`}>
                          Postal code → {r.suggestion.postalCode}
                        </Button>
                      )
                    ) : (
                      <Text size="sm" c="dimmed">
                        Needs a person
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            <Group justify="flex-end" mt="sm">
              <Button variant="default" size="xs" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                Previous
              </Button>
              <Button variant="default" size="xs" disabled={!problems.data?.nextCursor} onClick={() => problems.data?.nextCursor && setCursors((c) => [...c, problems.data!.nextCursor])}>
                Next
              </Button>
            </Group>
          </>
        )}
      </ListStates>
    </Paper>
  );
}
