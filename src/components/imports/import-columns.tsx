"use client";

import { Anchor, Badge, Button, Paper, Skeleton, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { formatNumber } from "@/components/ui/format";
import { CONTACT_FIELDS, FIELD_LABELS, type TContactField } from "@/server/records/contacts/csv-headers";
import { MAX_KEPT_DUPLICATES } from "@/server/programme/imports/limits";
import type { TColumnOutcome } from "@/server/programme/imports/schema";
import { useTRPC } from "@/trpc/react";

/** What a column became, in words: a field's label, a custom field's name, or not imported. */
function Became({ became }: { became: string }) {
  if (became === "ignore")
    return (
      <Badge color="gray" variant="light">
        Not imported
      </Badge>
    );
  if (became.startsWith("custom:")) {
    return <Text size="sm">Custom field “{became.slice(7)}”</Text>;
  }
  return (
    <Text size="sm">
      {(CONTACT_FIELDS as readonly string[]).includes(became) ? FIELD_LABELS[became as TContactField] : became}
    </Text>
  );
}

/** Every column of an imported file and what it became. */
export function ImportColumns({ columns }: { columns: TColumnOutcome[] }) {
  const ignored = columns.filter((c) => c.became === "ignore").length;
  const custom = columns.filter((c) => c.became.startsWith("custom:")).length;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4">
        Columns ({formatNumber(columns.length)})
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {formatNumber(columns.length - custom - ignored)} filled contact fields, {formatNumber(custom)} kept as custom
        fields
        {ignored ? `, ${formatNumber(ignored)} not imported (chosen in the mapping)` : ""}.
      </Text>
      <DataTable
        variant="compact"
        minWidth={480}
        head={
          <>
            <Table.Th w="45%">Column in the file</Table.Th>
            <Table.Th>Imported as</Table.Th>
          </>
        }
      >
        {columns.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a CSV may repeat a column name; its place tells the two apart.
          <Table.Tr key={`${i}-${c.column}`}>
            <Table.Td style={{ overflowWrap: "anywhere" }}>{c.column}</Table.Td>
            <Table.Td>
              <Became became={c.became} />
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Paper>
  );
}

/** The rows an import merged as duplicates, with the contact each joined, 25 at a time. */
export function MergedRows({ workspaceId, importId, count }: { workspaceId: string; importId: string; count: number }) {
  const trpc = useTRPC();
  const merged = useInfiniteQuery(
    trpc.contactImport.duplicates.infiniteQueryOptions(
      { workspaceId, importId, take: 25 },
      { getNextPageParam: (last) => last.nextAfterRow, initialCursor: null, enabled: count > 0 },
    ),
  );
  const rows = merged.data?.pages.flatMap((p) => p.rows) ?? [];
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4">
        Rows merged as duplicates ({formatNumber(count)})
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Each of these rows is the same person as an earlier row of the file (same email, else CRM id, else name and
        address): it joined that row’s contact and was not written again.
        {count > MAX_KEPT_DUPLICATES
          ? ` The first ${formatNumber(MAX_KEPT_DUPLICATES)} are listed; all ${formatNumber(count)} are counted.`
          : ""}
      </Text>
      {count === 0 ? (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      ) : merged.isPending ? (
        <Skeleton h={120} />
      ) : (
        <>
          <DataTable
            variant="compact"
            minWidth={400}
            head={
              <>
                <Table.Th w={70}>Row</Table.Th>
                <Table.Th>Joined the contact</Table.Th>
              </>
            }
          >
            {rows.map((r) => (
              <Table.Tr key={r.row}>
                <Table.Td>{r.row}</Table.Td>
                <Table.Td>
                  {r.contactId ? (
                    <Anchor component={Link} href={`/w/${workspaceId}/contacts/${r.contactId}`} size="sm">
                      {r.contactName ?? r.contactId}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      no longer here
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          {merged.hasNextPage && (
            <Button
              mt="xs"
              size="xs"
              variant="subtle"
              onClick={() => merged.fetchNextPage()}
              loading={merged.isFetchingNextPage}
            >
              Show more
            </Button>
          )}
        </>
      )}
    </Paper>
  );
}
