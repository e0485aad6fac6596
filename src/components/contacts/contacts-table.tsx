"use client";

import { Anchor, Badge, Button, Checkbox, Group, Skeleton, Table, Text } from "@mantine/core";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useEffect, useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatNumber } from "@/components/ui/format";
import { ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { fullName, place, sourceLabels } from "./labels";
import { CopyIcon } from "@/components/ui/copy-icon";

export interface ContactFilterValue {
  search?: string | null;
  audienceId?: string | null;
  accountId?: string | null;
  country?: string | null;
  suppressed?: boolean | null;
}

const PAGE = 25;

/**
 * A page of contacts from the server (search and filters run there), 25 at a time with Previous /
 * Next over cursors, and optional selection for actions on chosen contacts.
 */
export function ContactsTable({
  workspaceId,
  filter,
  empty,
  selectable = false,
  selected,
  onSelectedChange,
  hideAccount = false,
}: {
  workspaceId: string;
  filter: ContactFilterValue;
  empty: ReactNode;
  selectable?: boolean;
  selected?: Set<string>;
  onSelectedChange?: (ids: Set<string>) => void;
  hideAccount?: boolean;
}) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const key = JSON.stringify(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts again at the first page.
  useEffect(() => setCursors([null]), [key]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery(
    trpc.contact.list.queryOptions({ workspaceId, ...filter, cursor, take: PAGE }, { placeholderData: (prev) => prev }),
  );
  const count = useQuery(trpc.contact.count.queryOptions({ workspaceId, ...filter }));
  const rows = page.data?.contacts;
  const chosen = selected ?? new Set<string>();
  const allOnPage = !!rows?.length && rows.every((r) => chosen.has(r.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onSelectedChange?.(next);
  };
  const first = (cursors.length - 1) * PAGE + 1;

  return (
    <ListStates query={page} items={rows} loading={<Skeleton h={320} />} empty={empty}>
      {(items) => (
        <>
          <DataTable
            minWidth={860}
            head={
              <>
                {selectable && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select every contact on this page"
                      checked={allOnPage}
                      indeterminate={!allOnPage && items.some((r) => chosen.has(r.id))}
                      onChange={(e) => {
                        const next = new Set(chosen);
                        for (const r of items) e.currentTarget.checked ? next.add(r.id) : next.delete(r.id);
                        onSelectedChange?.(next);
                      }}
                    />
                  </Table.Th>
                )}
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                {!hideAccount && <Table.Th>Account</Table.Th>}
                <Table.Th>Location</Table.Th>
                <Table.Th>Source</Table.Th>
              </>
            }
          >
            {items.map((c) => (
              <Table.Tr key={c.id} bg={chosen.has(c.id) ? "var(--mantine-color-blue-light)" : undefined}>
                {selectable && (
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${fullName(c)}`}
                      checked={chosen.has(c.id)}
                      onChange={(e) => toggle(c.id, e.currentTarget.checked)}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Anchor component={Link} href={`/w/${workspaceId}/contacts/${c.id}`} fw={600}>
                      {fullName(c)}
                    </Anchor>
                    {c.suppressed && (
                      <Badge size="xs" color="red" variant="light">
                        suppressed
                      </Badge>
                    )}
                    <CopyIcon value={c.id} label={`Copy ${fullName(c)}'s contact id (${c.id}) for the API`} />
                  </Group>
                  {c.title && (
                    <Text size="xs" c="dimmed">
                      {c.title}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{c.email ?? <Text c="dimmed">none</Text>}</Table.Td>
                {!hideAccount && (
                  <Table.Td>
                    {c.account ? (
                      <Anchor component={Link} href={`/w/${workspaceId}/accounts/${c.account.id}`} size="sm">
                        {c.account.name}
                      </Anchor>
                    ) : (
                      <Text c="dimmed">none</Text>
                    )}
                  </Table.Td>
                )}
                <Table.Td>{place(c) || <Text c="dimmed">no address</Text>}</Table.Td>
                <Table.Td>
                  <Text size="sm">{sourceLabels[c.source]}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <Group justify="space-between" mt="sm" wrap="wrap">
            <Text size="sm" c="dimmed" aria-live="polite">
              {formatNumber(first)}–{formatNumber(first + items.length - 1)}
              {count.data !== undefined ? ` of ${formatNumber(count.data)}` : ""}
              {selectable && chosen.size ? ` · ${formatNumber(chosen.size)} selected` : ""}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                leftSection={<IconChevronLeft size={14} />}
                disabled={cursors.length === 1}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Previous
              </Button>
              <Button
                variant="default"
                size="xs"
                rightSection={<IconChevronRight size={14} />}
                disabled={!page.data?.nextCursor || page.isFetching}
                onClick={() => setCursors([...cursors, page.data!.nextCursor])}
              >
                Next
              </Button>
            </Group>
          </Group>
        </>
      )}
    </ListStates>
  );
}
