"use client";

import {
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconFileUpload, IconPlus, IconSearch, IconTrash } from "@tabler/icons-react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { kindLabels, reasonLabels, sourceLabels } from "@/components/contacts/labels";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { AddSuppressionModal, ImportSuppressionsModal } from "./add-suppression-modal";
import { RoleNote, useCan } from "@/components/access/role";

const REASONS = ["opt-out", "customer", "competitor", "do-not-mail", "bounced"] as const;

/** The suppression list: what is never mailed, why, and who put it there; add, import, remove. */
export function SuppressionsPage({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<(typeof REASONS)[number] | null>(null);
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const list = useInfiniteQuery(
    trpc.suppression.list.infiniteQueryOptions(
      { workspaceId, reason, search: debounced || null, take: 25 },
      { getNextPageParam: (last) => last.nextCursor, placeholderData: (prev) => prev },
    ),
  );
  const counts = useQuery(trpc.suppression.counts.queryOptions({ workspaceId }));
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; label: string } | null>(null);
  const remove = useMutation(
    trpc.suppression.remove.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.suppression.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        setRemoving(null);
      },
    }),
  );
  const items = list.data?.pages.flatMap((p) => p.suppressions);
  const total = (counts.data ?? []).reduce((n, c) => n + c.count, 0);
  const prepare = useCan("prepare");
  const administer = useCan("administer");
  const actions = !prepare.allowed ? null : (
    <Group gap="xs">
      <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
        Add
      </Button>
      <Button variant="default" leftSection={<IconFileUpload size={16} />} onClick={() => setImporting(true)}>
        Import CSV
      </Button>
    </Group>
  );
  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Suppressions
        </Title>
        {actions}
      </Group>
      <Text size="sm" c="dimmed" maw={760}>
        Nothing on this list is ever mailed: every campaign checks it before a piece is made. An email or an address
        stops those contacts, a domain stops every email there and every account with it, an account stops all its
        contacts.
      </Text>
      {total > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
          {REASONS.map((r) => (
            <Paper key={r} withBorder p="sm">
              <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                {reasonLabels[r]}
              </Text>
              <Text fz={22} fw={700}>
                {formatNumber(counts.data?.find((c) => c.reason === r)?.count ?? 0)}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {total > 0 && (
        <Group gap="sm" align="flex-end">
          <TextInput
            label="Search"
            placeholder="Email, domain, address or name"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={{ base: "100%", sm: 280 }}
            maxLength={100}
          />
          <Select
            label="Reason"
            placeholder="Any reason"
            clearable
            data={REASONS.map((r) => ({ value: r, label: reasonLabels[r] }))}
            value={reason}
            onChange={(v) => setReason(v as typeof reason)}
            w={{ base: "100%", sm: 200 }}
          />
        </Group>
      )}
      <ListStates
        query={list}
        items={items}
        loading={<Skeleton h={200} />}
        empty={
          total === 0 ? (
            <EmptyState title="Nobody is suppressed yet" action={actions}>
              Add the people who opted out, your customers and competitors, and addresses mail came back from; or import
              the list from your CRM. A contact&apos;s page can suppress that contact.
            </EmptyState>
          ) : (
            <EmptyState title="No suppressions match">Try other words or another reason.</EmptyState>
          )
        }
      >
        {(rows) => (
          <>
            <DataTable
              minWidth={760}
              head={
                <>
                  <Table.Th>Suppressed</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th>Added by</Table.Th>
                  <Table.Th w={60}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </>
              }
            >
              {rows.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Badge variant="light" color="gray" size="sm">
                        {kindLabels[s.kind]}
                      </Badge>
                      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                        {s.label}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{reasonLabels[s.reason]}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.createdBy ?? sourceLabels[s.source]}</Text>
                    <Text size="xs" c="dimmed">
                      {sourceLabels[s.source]} · {formatDateTime(s.createdAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <RoleNote can={administer}>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${s.label} from the suppression list`}
                        onClick={() => setRemoving({ id: s.id, label: s.label })}
                        disabled={!administer.allowed}
                      >
                        <IconTrash size={16} aria-hidden />
                      </Button>
                    </RoleNote>
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {list.hasNextPage && (
              <Button
                variant="default"
                w="fit-content"
                onClick={() => list.fetchNextPage()}
                loading={list.isFetchingNextPage}
              >
                Show more
              </Button>
            )}
          </>
        )}
      </ListStates>
      <AddSuppressionModal workspaceId={workspaceId} opened={adding} onClose={() => setAdding(false)} />
      <ImportSuppressionsModal workspaceId={workspaceId} opened={importing} onClose={() => setImporting(false)} />
      <ConfirmModal
        opened={removing !== null}
        title="Take off the suppression list"
        confirmLabel="Remove"
        color="red"
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ workspaceId, suppressionId: removing.id })}
      >
        <Text size="sm">
          “{removing?.label}” may be mailed again by campaigns whose audience holds it. The audit log records who
          removed it.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
