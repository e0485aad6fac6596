"use client";

import { Badge, Button, Code, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { IconKey, IconPlus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { formatDateTime } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { ScopeBadges } from "./scope-badges";
import { CreateApiKeyModal } from "./create-api-key-modal";
import { EntryEventExample } from "./entry-event-example";
import { IfCan } from "@/components/access/role";

export function ApiKeysPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ workspaceId }));
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const revoke = useMutation(
    trpc.apiKey.revoke.mutationOptions({
      onSuccess: async (key) => {
        setRevoking(null);
        notifications.show({ color: "teal", title: "Key revoked", message: `${key.name} stopped working.` });
        await queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey({ workspaceId }) });
      },
      onError: (err) => notifications.show({ color: "red", title: "Could not revoke the key", message: err.message }),
    }),
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            API keys
          </Title>
          <Text c="dimmed" size="sm" maw={640}>
            A key lets your CRM or product post entry events to live API-entry campaigns, read the status of the events
            it posted, and report conversions. It cannot read or browse workspace data, create contacts, launch mail,
            approve copy or change a campaign.
          </Text>
        </div>
        <IfCan action="administer">
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            Create key
          </Button>
        </IfCan>
      </Group>

      <ListStates
        query={keys}
        items={keys.data}
        loading={
          <Stack gap="xs" aria-busy="true">
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        }
        empty={
          <EmptyState
            title="No API keys yet"
            action={
              <IfCan action="administer">
                <Button onClick={openCreate} leftSection={<IconKey size={16} />}>
                  Create your first key
                </Button>
              </IfCan>
            }
          >
            Create a key for each system that posts entry events or conversions, so you can revoke one without touching
            the others.
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable
            minWidth={760}
            head={
              <>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {items.map((key) => (
              <Table.Tr key={key.id} c={key.revokedAt ? "dimmed" : undefined}>
                <Table.Td fw={500}>
                  <span className="name">{key.name}</span>
                </Table.Td>
                <Table.Td>
                  <Code>{key.start}…</Code>
                </Table.Td>
                <Table.Td>
                  <ScopeBadges scopes={key.scopes} />
                </Table.Td>
                <Table.Td>{formatDateTime(key.createdAt)}</Table.Td>
                <Table.Td>{formatDateTime(key.lastUsedAt)}</Table.Td>
                <Table.Td ta="right">
                  {key.revokedAt ? (
                    <Badge color="gray" variant="outline">
                      Revoked {formatDateTime(key.revokedAt)}
                    </Badge>
                  ) : (
                    <IfCan action="administer">
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => setRevoking({ id: key.id, name: key.name })}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </Button>
                    </IfCan>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListStates>

      <EntryEventExample workspaceId={workspaceId} />

      <CreateApiKeyModal workspaceId={workspaceId} opened={creating} onClose={closeCreate} />
      <ConfirmModal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        color="red"
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ workspaceId, keyId: revoking.id })}
      >
        <Text size="sm">
          <b>{revoking?.name}</b> stops working at once: every request with it gets 401. This cannot be undone; create a
          new key to replace it.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
