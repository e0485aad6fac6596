"use client";

import { Anchor, Button, Skeleton, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconSearch } from "@tabler/icons-react";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { sourceLabels } from "@/components/contacts/labels";
import { DataTable } from "@/components/ui/data-table";
import { formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";

export function AccountsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const accounts = useInfiniteQuery(
    trpc.account.list.infiniteQueryOptions(
      { workspaceId, search: debounced || null, take: 25 },
      { getNextPageParam: (last) => last.nextCursor, placeholderData: (prev) => prev },
    ),
  );
  const items = accounts.data?.pages.flatMap((p) => p.accounts);
  return (
    <Stack gap="md" maw={1100}>
      <Title order={1} size="h2">
        Accounts
      </Title>
      <Text size="sm" c="dimmed" maw={720}>
        The companies your contacts work at. A campaign&apos;s holdout is drawn per account, so every contact of an
        account is in the same arm. Imports find a contact&apos;s account by its company, else by its email&apos;s
        domain (never a free-mail one such as gmail.com); a person with neither gets an account of their own.
      </Text>
      <TextInput
        label="Search"
        placeholder="Name or domain"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={320}
        maxLength={100}
      />
      <ListStates
        query={accounts}
        items={items}
        loading={<Skeleton h={200} />}
        empty={
          debounced ? (
            <EmptyState title="No accounts match">
              Search matches the start of words of an account&apos;s name or domain.
            </EmptyState>
          ) : (
            <EmptyState
              title="No accounts yet"
              action={
                <Button component={Link} href={`/w/${workspaceId}/contacts/import`}>
                  Import contacts
                </Button>
              }
            >
              Accounts are made as contacts come in, from their company or their email&apos;s domain.
            </EmptyState>
          )
        }
      >
        {(rows) => (
          <>
            <DataTable
              minWidth={640}
              head={
                <>
                  <Table.Th>Account</Table.Th>
                  <Table.Th>Domain</Table.Th>
                  <Table.Th ta="right">Contacts</Table.Th>
                  <Table.Th>Source</Table.Th>
                </>
              }
            >
              {rows.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/w/${workspaceId}/accounts/${a.id}`} fw={600}>
                      {a.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{a.domain ?? <Text c="dimmed">none</Text>}</Table.Td>
                  <Table.Td ta="right">{formatNumber(a.contacts)}</Table.Td>
                  <Table.Td>{sourceLabels[a.source] ?? a.source}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {accounts.hasNextPage && (
              <Button
                variant="default"
                w="fit-content"
                onClick={() => accounts.fetchNextPage()}
                loading={accounts.isFetchingNextPage}
              >
                Show more
              </Button>
            )}
          </>
        )}
      </ListStates>
    </Stack>
  );
}
