"use client";

import { Anchor, Button, Skeleton, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { ScopeBadges } from "./scope-badges";
import { IfCan } from "@/components/access/role";

/** Settings -> Connected agents: each agent the owner approved, its scopes and last use, with Revoke. */
export function ConnectedAgentsPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const grants = useQuery(trpc.connectedAgents.list.queryOptions({ workspaceId }));
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const revoke = useMutation(
    trpc.connectedAgents.revoke.mutationOptions({
      onSuccess: async () => {
        notifications.show({
          color: "teal",
          title: "Agent disconnected",
          message: `${revoking?.name} can no longer act in this workspace.`,
        });
        setRevoking(null);
        await queryClient.invalidateQueries({ queryKey: trpc.connectedAgents.list.queryKey({ workspaceId }) });
      },
      onError: (err) => notifications.show({ color: "red", title: "Could not revoke", message: err.message }),
    }),
  );

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Connected agents
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          AI agents you approved to work in this workspace over MCP. They never see your password or an API key, and
          anything that prints, approves or spends waits for you in{" "}
          <Anchor href={`/w/${workspaceId}/confirmations`}>Confirmations</Anchor>. Revoking stops an agent&apos;s tokens
          at once. How agents connect: <Anchor href="/auth.md">auth.md</Anchor>.
        </Text>
      </div>
      <ListStates
        query={grants}
        items={grants.data}
        loading={
          <Stack gap="xs" aria-busy="true">
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        }
        empty={
          <EmptyState title="No agents connected">
            Point an MCP client (Claude, Cursor, your own agent) at <code>/api/mcp</code>. It will send you to a page
            here to approve it.
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable
            minWidth={760}
            head={
              <>
                <Table.Th>Agent</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Approved</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {items.map((g) => (
              <Table.Tr key={g.id}>
                <Table.Td>
                  <Text fw={500} size="sm" className="name">
                    {g.clientName}
                  </Text>
                  <Tooltip label={g.clientId}>
                    <Text size="xs" c="dimmed">
                      returns to {g.redirectHosts.join(", ")}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <ScopeBadges scopes={g.scopes} />
                </Table.Td>
                <Table.Td>{formatDateTime(g.createdAt)}</Table.Td>
                <Table.Td>{g.lastUsedAt ? formatDateTime(g.lastUsedAt) : "never"}</Table.Td>
                <Table.Td ta="right">
                  <IfCan action="administer">
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      onClick={() => setRevoking({ id: g.id, name: g.clientName })}
                      aria-label={`Revoke ${g.clientName}`}
                    >
                      Revoke
                    </Button>
                  </IfCan>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListStates>
      <ConfirmModal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Disconnect this agent?"
        confirmLabel="Revoke access"
        color="red"
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ workspaceId, grantId: revoking.id })}
      >
        <Text size="sm">
          <b>{revoking?.name}</b> loses access at once: its tokens stop working. Cards it asked for stay in
          Confirmations for you to decide. To use it again, approve it again.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
