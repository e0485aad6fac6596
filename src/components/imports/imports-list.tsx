"use client";

import { Anchor, Button, Group, Paper, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { IconFileUpload } from "@tabler/icons-react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { DiscardUploadButton } from "./discard-upload";
import { ImportStatusBadge } from "./import-status-badge";
import { useCan } from "@/components/access/role";

/**
 * Files uploaded whose import was never started: listed apart from the imports (they wrote
 * nothing, so they have no counts and no audience), each with a way to discard it.
 */
function UnstartedUploads({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const uploads = useQuery(trpc.contactImport.uploads.queryOptions({ workspaceId }));
  if (!uploads.data?.total) return null;
  const { uploads: rows, total } = uploads.data;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4">
        Uploaded, never imported ({formatNumber(total)})
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        These files were uploaded but their import was not started, so nothing of them was written. Discard them, or
        upload a file again to import it.
      </Text>
      <DataTable
        variant="compact"
        minWidth={560}
        head={
          <>
            <Table.Th>File</Table.Th>
            <Table.Th ta="right">Rows</Table.Th>
            <Table.Th>Uploaded</Table.Th>
            <Table.Th ta="right">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {rows.map((u) => (
          <Table.Tr key={u.importId}>
            <Table.Td>
              <Anchor component={Link} href={`/w/${workspaceId}/imports/${u.importId}`} size="sm" fw={600}>
                {u.fileName}
              </Anchor>
            </Table.Td>
            <Table.Td ta="right">{formatNumber(u.rows)}</Table.Td>
            <Table.Td>
              <Text size="sm">{formatDateTime(u.uploadedAt)}</Text>
              <Text size="xs" c="dimmed">
                by {u.uploadedBy}
              </Text>
            </Table.Td>
            <Table.Td ta="right">
              <DiscardUploadButton
                workspaceId={workspaceId}
                importId={u.importId}
                fileName={u.fileName}
                rows={u.rows}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      {total > rows.length && (
        <Text size="xs" c="dimmed" mt="xs">
          The newest {formatNumber(rows.length)} of {formatNumber(total)} are shown; discard some to see the others.
        </Text>
      )}
    </Paper>
  );
}

/** Every CSV import of the workspace that was started, with its counts, newest first; uploads never imported above them. */
export function ImportsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const imports = useInfiniteQuery(
    trpc.contactImport.list.infiniteQueryOptions(
      { workspaceId, take: 25 },
      {
        getNextPageParam: (last) => last.nextCursor,
        refetchInterval: (q) =>
          q.state.data?.pages.some((p) => p.imports.some((i) => i.status === "running" || i.status === "queued"))
            ? 2000
            : false,
      },
    ),
  );
  const items = imports.data?.pages.flatMap((p) => p.imports);
  const prepare = useCan("prepare");
  const importButton = !prepare.allowed ? null : (
    <Button component={Link} href={`/w/${workspaceId}/contacts/import`} leftSection={<IconFileUpload size={16} />}>
      Import CSV
    </Button>
  );
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Imports
        </Title>
        {importButton}
      </Group>
      <UnstartedUploads workspaceId={workspaceId} />
      <ListStates
        query={imports}
        items={items}
        loading={<Skeleton h={200} />}
        empty={
          <EmptyState title="No imports yet" action={importButton}>
            Each CSV file you or your agents import is listed here with its report: rows read, contacts created, updated
            and skipped, and the rows that were refused, which you can download, fix and import again.
          </EmptyState>
        }
      >
        {(rows) => (
          <>
            <DataTable
              minWidth={900}
              head={
                <>
                  <Table.Th>File</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th ta="right">Rows</Table.Th>
                  <Table.Th ta="right">Created</Table.Th>
                  <Table.Th ta="right">Updated</Table.Th>
                  <Table.Th ta="right">Skipped</Table.Th>
                  <Table.Th ta="right">Refused</Table.Th>
                  <Table.Th>Audience</Table.Th>
                </>
              }
            >
              {rows.map((i) => (
                <Table.Tr key={i.importId}>
                  <Table.Td>
                    <Anchor component={Link} href={`/w/${workspaceId}/imports/${i.importId}`} fw={600}>
                      {i.fileName}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(i.startedAt ?? i.createdAt)} · {i.requestedBy}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <ImportStatusBadge status={i.status} />
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(i.rows)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(i.created)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(i.updated)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(i.skipped)}</Table.Td>
                  <Table.Td ta="right" c={i.refusedCount ? "red.8" : undefined}>
                    {formatNumber(i.refusedCount)}
                  </Table.Td>
                  <Table.Td>
                    {i.audienceId ? (
                      <Anchor component={Link} href={`/w/${workspaceId}/audiences/${i.audienceId}`} size="sm">
                        {i.audienceName}
                      </Anchor>
                    ) : (
                      <Text c="dimmed">none</Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {imports.hasNextPage && (
              <Button
                variant="default"
                onClick={() => imports.fetchNextPage()}
                loading={imports.isFetchingNextPage}
                w="fit-content"
              >
                Show older imports
              </Button>
            )}
          </>
        )}
      </ListStates>
    </Stack>
  );
}
