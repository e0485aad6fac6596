"use client";

import { ChartFigure } from "@/components/ui/chart-figure";
import { countChartProps } from "@/components/ui/chart-props";
import { StatCard } from "@/components/ui/stat-card";
import { BarChart } from "@mantine/charts";
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconDownload, IconPlayerPlay } from "@tabler/icons-react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { JobProgress } from "@/components/jobs/job-progress";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { DiscardUploadButton } from "./discard-upload";
import { ImportColumns, MergedRows } from "./import-columns";
import { ImportStatusBadge } from "./import-status-badge";
import { IfCan } from "@/components/access/role";

function IssuesTable({
  workspaceId,
  importId,
  kind,
  count,
}: {
  workspaceId: string;
  importId: string;
  kind: "refused" | "warning";
  count: number;
}) {
  const trpc = useTRPC();
  const issues = useInfiniteQuery(
    trpc.contactImport.issues.infiniteQueryOptions(
      { workspaceId, importId, kind, take: 25 },
      { getNextPageParam: (last) => last.nextAfterRow, initialCursor: null, enabled: count > 0 },
    ),
  );
  const rows = issues.data?.pages.flatMap((p) => p.issues) ?? [];
  const title = kind === "refused" ? "Refused rows" : "Warnings";
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <div>
          <Title order={2} size="h4">
            {title} ({formatNumber(count)})
          </Title>
          <Text size="sm" c="dimmed">
            {kind === "refused"
              ? "Nothing of these rows was written. Download them, fix them and import the file again."
              : "These contacts were written without the value named."}
          </Text>
        </div>
        {count > 0 && (
          <Button
            component="a"
            href={`/api/imports/${importId}/refused?workspaceId=${workspaceId}&kind=${kind}`}
            download
            variant="default"
            size="xs"
            leftSection={<IconDownload size={14} />}
          >
            Download {kind === "refused" ? "refused rows" : "warnings"} (CSV)
          </Button>
        )}
      </Group>
      {count === 0 ? (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      ) : issues.isPending ? (
        <Skeleton h={120} />
      ) : (
        <>
          <DataTable
            variant="compact"
            minWidth={600}
            head={
              <>
                <Table.Th w={70}>Row</Table.Th>
                <Table.Th w={180}>Column</Table.Th>
                <Table.Th>Reason</Table.Th>
              </>
            }
          >
            {rows.map((r) => (
              <Table.Tr key={`${r.row}-${r.column}-${r.reason}`}>
                <Table.Td>{r.row}</Table.Td>
                <Table.Td>
                  {r.column ?? (
                    <Text c="dimmed" size="sm">
                      whole row
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{r.reason}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          {issues.hasNextPage && (
            <Button
              mt="xs"
              size="xs"
              variant="subtle"
              onClick={() => issues.fetchNextPage()}
              loading={issues.isFetchingNextPage}
            >
              Show more
            </Button>
          )}
        </>
      )}
    </Paper>
  );
}

/** One import: its progress while it runs (cancel), then its report with the refused rows and warnings. */
export function ImportReport({ workspaceId, importId }: { workspaceId: string; importId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const query = useQuery(
    trpc.contactImport.get.queryOptions(
      { workspaceId, importId },
      { refetchInterval: (q) => (q.state.data && ["queued", "running"].includes(q.state.data.status) ? 1500 : false) },
    ),
  );
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.contactImport.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
  }, [queryClient, trpc]);
  const resume = useMutation(trpc.contactImport.resume.mutationOptions({ onSuccess: refresh }));
  if (query.isPending) return <Skeleton h={400} />;
  if (query.isError) return <PageError message={query.error.message} onRetry={() => query.refetch()} />;
  const v = query.data;
  const finished = ["succeeded", "failed", "cancelled"].includes(v.status);
  // Uploaded, never imported: nothing was written, so there are no counts, rows or warnings to show.
  const notStarted = v.status === "awaiting_mapping";
  const chart = [
    { outcome: "Created", Rows: v.created },
    { outcome: "Updated", Rows: v.updated },
    { outcome: "Skipped", Rows: v.skipped },
    { outcome: "Refused", Rows: v.refusedCount },
  ];
  return (
    <Stack gap="lg" maw={1100}>
      <div>
        <Anchor component={Link} href={`/w/${workspaceId}/imports`} size="sm">
          Imports
        </Anchor>
        <Group gap="sm" mt={4}>
          <Title order={1} size="h2" style={{ overflowWrap: "anywhere" }}>
            {v.fileName}
          </Title>
          <ImportStatusBadge status={v.status} />
        </Group>
        <Text size="sm" c="dimmed">
          {formatNumber(v.rows)} rows ·{" "}
          {notStarted
            ? `uploaded ${formatDateTime(v.createdAt)}`
            : `started ${formatDateTime(v.startedAt ?? v.createdAt)}`}{" "}
          by {v.requestedBy}
          {v.onExisting ? ` · existing contacts ${v.onExisting === "update" ? "updated" : "left as they were"}` : ""}
          {v.finishedAt ? ` · finished ${formatDateTime(v.finishedAt)}` : ""}
        </Text>
      </div>
      {v.job && (
        <JobProgress workspaceId={workspaceId} jobId={v.job.jobId} onFinished={refresh} cancellable={!finished} />
      )}
      {notStarted && (
        <Alert color="gray" title="Not imported">
          <Text size="sm">
            This file was uploaded but its import was never started: no contact was written from it. Discard it, or{" "}
            <Anchor component={Link} href={`/w/${workspaceId}/contacts/import`} size="sm">
              upload it again
            </Anchor>{" "}
            to choose its mapping and import it.
          </Text>
          <Group mt="sm">
            <DiscardUploadButton
              workspaceId={workspaceId}
              importId={importId}
              fileName={v.fileName}
              rows={v.rows}
              onDiscarded={() => router.push(`/w/${workspaceId}/imports`)}
            />
          </Group>
        </Alert>
      )}
      {(v.status === "failed" || v.status === "cancelled") && (
        <Alert
          color={v.status === "failed" ? "red" : "orange"}
          title={v.status === "failed" ? "The import stopped" : "The import was cancelled"}
        >
          <Text size="sm">
            {formatNumber(v.rowsDone)} of {formatNumber(v.rows)} rows were imported; the rest were not. Resuming
            continues after the last row written, without duplicating anyone.
          </Text>
          {resume.error && (
            <Text size="sm" c="red.8" mt="xs">
              {resume.error.message}
            </Text>
          )}
          <IfCan action="prepare">
            <Button
              mt="sm"
              size="xs"
              leftSection={<IconPlayerPlay size={14} />}
              loading={resume.isPending}
              onClick={() => resume.mutate({ workspaceId, importId })}
            >
              Resume the import
            </Button>
          </IfCan>
        </Alert>
      )}
      {!notStarted && (
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <StatCard label="Created" value={v.created} hint="new contacts" />
          <StatCard label="Updated" value={v.updated} hint="existing contacts with new values" />
          <StatCard
            label="Skipped"
            value={v.skipped}
            hint={v.duplicates ? `${formatNumber(v.duplicates)} repeated in the file` : "already there, nothing new"}
          />
          <StatCard label="Refused" value={v.refusedCount} hint="nothing written" />
        </SimpleGrid>
      )}
      {v.keptFields > 0 && (
        <Alert
          color="blue"
          title={`${formatNumber(v.keptFields)} ${v.keptFields === 1 ? "field was" : "fields were"} kept as people had changed them`}
        >
          A person, an agent or an accepted audit fix changed {v.keptFields === 1 ? "this field" : "these fields"} after
          the file’s value last came in, and the file still says the same: the change stands. A field whose value in the
          file has changed takes the file’s new value; each contact’s page shows its field history.
        </Alert>
      )}
      {finished && v.rows > 0 && (
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            What happened to the {formatNumber(v.rowsDone)} rows read
          </Title>
          <ChartFigure label={chart.map((c) => `${c.outcome}: ${c.Rows}`).join(", ")}>
            <BarChart
              {...countChartProps}
              h={180}
              data={chart}
              dataKey="outcome"
              series={[{ name: "Rows", color: "indigo.6" }]}
              tickLine="y"
              withTooltip
            />
          </ChartFigure>
        </Paper>
      )}
      {v.audienceId && (
        <Group gap="md">
          <Button
            component={Link}
            href={`/w/${workspaceId}/audiences/${v.audienceId}`}
            variant="light"
            title={`Open the audience “${v.audienceName}”`}
          >
            <Text span inherit truncate>
              Open the audience “{v.audienceName}”
            </Text>
          </Button>
          <Button component={Link} href={`/w/${workspaceId}/contacts?audienceId=${v.audienceId}`} variant="default">
            See its contacts
          </Button>
        </Group>
      )}
      {v.columnMapping && <ImportColumns columns={v.columnMapping} />}
      {v.columnMapping && <MergedRows workspaceId={workspaceId} importId={importId} count={v.duplicates} />}
      {!notStarted && (
        <IssuesTable workspaceId={workspaceId} importId={importId} kind="refused" count={v.refusedCount} />
      )}
      {!notStarted && (
        <IssuesTable workspaceId={workspaceId} importId={importId} kind="warning" count={v.warningCount} />
      )}
    </Stack>
  );
}
