"use client";

import { Anchor, Badge, Button, Group, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { NameModal, schemaRule } from "@/components/ui/name-modal";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { ZAudienceName } from "@/server/records/audiences/schema";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

const sourceLabel = { csv: "CSV import", crm: "CRM", manual: "Made here" } as const;

export function AudiencesList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const audiences = useInfiniteQuery(
    trpc.audience.page.infiniteQueryOptions({ workspaceId, take: 25 }, { getNextPageParam: (last) => last.nextCursor }),
  );
  const [creating, setCreating] = useState(false);
  const create = useMutation(
    trpc.audience.create.mutationOptions({
      onSuccess: (a) => {
        void queryClient.invalidateQueries({ queryKey: trpc.audience.pathKey() });
        router.push(`/w/${workspaceId}/audiences/${a.id}`);
      },
    }),
  );
  const items = audiences.data?.pages.flatMap((p) => p.audiences);
  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Audiences
        </Title>
        <IfCan action="prepare">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New audience
          </Button>
        </IfCan>
      </Group>
      <Text size="sm" c="dimmed" maw={720}>
        An audience is a fixed list of contacts a campaign mails. Make one from an import, from a search or filter on
        the Contacts page, or from contacts you select there. Holdouts are drawn per account, so the account count is
        what a test is sized on.
      </Text>
      <ListStates
        query={audiences}
        items={items}
        loading={<Skeleton h={200} />}
        empty={
          <EmptyState
            title="No audiences yet"
            action={
              <IfCan action="prepare">
                <Button component={Link} href={`/w/${workspaceId}/contacts/import`}>
                  Import contacts
                </Button>
              </IfCan>
            }
          >
            Importing a CSV file makes an audience of its contacts. You can also save a filtered list of contacts as an
            audience.
          </EmptyState>
        }
      >
        {(rows) => (
          <>
            <DataTable
              minWidth={640}
              head={
                <>
                  <Table.Th>Audience</Table.Th>
                  <Table.Th ta="right">Contacts</Table.Th>
                  <Table.Th ta="right">Accounts</Table.Th>
                  <Table.Th>Made</Table.Th>
                </>
              }
            >
              {rows.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor component={Link} href={`/w/${workspaceId}/audiences/${a.id}`} fw={600}>
                      {a.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(a.size)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(a.accounts)}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      <Badge variant="light" color="gray">
                        {sourceLabel[a.source]}
                      </Badge>
                      <Text size="sm" c="dimmed">
                        {formatDateTime(a.createdAt)}
                      </Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {audiences.hasNextPage && (
              <Button
                variant="default"
                w="fit-content"
                onClick={() => audiences.fetchNextPage()}
                loading={audiences.isFetchingNextPage}
              >
                Show more
              </Button>
            )}
          </>
        )}
      </ListStates>
      <NameModal
        opened={creating}
        onClose={() => setCreating(false)}
        title="New audience"
        submitLabel="Create"
        validate={schemaRule(ZAudienceName)}
        onSubmit={(name) => create.mutateAsync({ workspaceId, name })}
      >
        <Text size="sm" c="dimmed">
          It starts empty; add contacts from the Contacts page (select them, or save a filter).
        </Text>
      </NameModal>
    </Stack>
  );
}
