"use client";

import { Anchor, Button, Group, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconFileUpload } from "@tabler/icons-react";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { ImportStatusBadge } from "./import-status-badge";

/** Every CSV import of the workspace with its counts, newest first. */
export function ImportsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const imports = useInfiniteQuery(
    trpc.contactImport.list.infiniteQueryOptions({ workspaceId, take: 25 }, { getNextPageParam: (last) => last.nextCursor, refetchInterval: (q) => (q.state.data?.pages.some((p) => p.imports.some((i) => i.status === "running" || i.status === "queued")) ? 2000 : false) }),
  );
  const items = imports.data?.pages.flatMap((p) => p.imports);
  const importButton = (
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
      <ListStates
        query={imports}
        items={items}
        loading={<Skeleton h={200} />}
        empty={
          <EmptyState title="No imports yet" action={importButton}>
            Each CSV file you or your agents import is listed here with its report: rows read, contacts created, updated and skipped, and the rows
            that were refused, which you can download, fix and import again.
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
                      {formatDateTime(i.createdAt)} · {i.requestedBy}
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
              <Button variant="default" onClick={() => imports.fetchNextPage()} loading={imports.isFetchingNextPage} w="fit-content">
                Show older imports
              </Button>
            )}
          </>
        )}
      </ListStates>
    </Stack>
  );
}
