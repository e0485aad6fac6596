"use client";

import {
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { IconDots, IconPlus, IconWebhook } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { AddEndpointModal } from "./add-endpoint-modal";
import { DeliveryLog } from "./delivery-log";
import { SecretReveal } from "./secret-reveal";

type Endpoint = {
  endpointId: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  previousSecretExpiresAt: Date | null;
};

/** Settings → Webhooks: the endpoints, their state, and one endpoint's delivery log. */
export function WebhooksPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const [selected, setSelected] = useState<string | null>(null);
  // While a delivery log is open, its endpoint's state (last success, failing since) follows the deliveries.
  const endpoints = useQuery(
    trpc.webhooks.listEndpoints.queryOptions({ workspaceId }, { refetchInterval: selected ? 5000 : false }),
  );
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const [rotatedSecret, setRotatedSecret] = useState<string | null>(null);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.webhooks.listEndpoints.queryKey({ workspaceId }) });
  const failed = (title: string) => (err: { message: string }) =>
    notifications.show({ color: "red", title, message: err.message });

  const update = useMutation(
    trpc.webhooks.updateEndpoint.mutationOptions({
      onSuccess: refresh,
      onError: failed("Could not change the endpoint"),
    }),
  );
  const remove = useMutation(
    trpc.webhooks.deleteEndpoint.mutationOptions({
      onSuccess: async (r) => {
        setDeleting(null);
        if (selected === r.endpointId) setSelected(null);
        await refresh();
      },
      onError: failed("Could not delete the endpoint"),
    }),
  );
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (r) => {
        setRotating(null);
        setRotatedSecret(r.secret);
        await refresh();
      },
      onError: failed("Could not rotate the secret"),
    }),
  );
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: async (_r, v) => {
        setSelected(v.endpointId);
        notifications.show({
          color: "teal",
          title: "Test event queued",
          message: "A webhook.test event is on its way; its attempt shows in the delivery log.",
        });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: failed("Could not send a test event"),
    }),
  );
  const shown = endpoints.data?.find((e) => e.endpointId === selected);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Webhooks
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            Your own systems hear about every entry event, piece, response and outcome as it happens. Each delivery is
            signed (Standard Webhooks) with the endpoint&apos;s secret and retried with back-off for about a day until
            your endpoint answers 2xx.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={openAdd}>
          Add endpoint
        </Button>
      </Group>

      <ListStates
        query={endpoints}
        items={endpoints.data}
        loading={
          <Stack gap="xs" aria-busy="true">
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        }
        empty={
          <EmptyState
            title="No webhook endpoints yet"
            action={
              <Button onClick={openAdd} leftSection={<IconWebhook size={16} />}>
                Add your first endpoint
              </Button>
            }
          >
            Add an https endpoint of your CRM, warehouse or automation tool and choose the events it should receive.
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable
            minWidth={820}
            head={
              <>
                <Table.Th>Endpoint</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Last success</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {items.map((e) => (
              <Table.Tr
                key={e.endpointId}
                bg={selected === e.endpointId ? "var(--mantine-color-blue-light)" : undefined}
              >
                <Table.Td maw={320}>
                  <Text size="sm" fw={500} style={{ wordBreak: "break-all" }}>
                    {e.url}
                  </Text>
                  {e.description ? (
                    <Text size="xs" c="dimmed">
                      {e.description}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{e.events.length === 1 ? e.events[0] : `${e.events.length} types`}</Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Switch
                      checked={e.enabled}
                      label={e.enabled ? "Enabled" : "Disabled"}
                      onChange={(ev) =>
                        update.mutate({ workspaceId, endpointId: e.endpointId, enabled: ev.currentTarget.checked })
                      }
                      aria-label={`${e.enabled ? "Disable" : "Enable"} ${e.url}`}
                    />
                    {e.failingSince && e.enabled ? (
                      <Badge color="orange" variant="light">
                        Failing since {formatDateTime(e.failingSince)}
                      </Badge>
                    ) : null}
                  </Stack>
                </Table.Td>
                <Table.Td>{formatDateTime(e.lastSuccessAt)}</Table.Td>
                <Table.Td ta="right">
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => setSelected(e.endpointId)}>
                      Deliveries
                    </Button>
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <Button size="xs" variant="default" aria-label={`More actions for ${e.url}`}>
                          <IconDots size={16} />
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          disabled={!e.enabled}
                          onClick={() => sendTest.mutate({ workspaceId, endpointId: e.endpointId })}
                        >
                          Send test event
                        </Menu.Item>
                        <Menu.Item onClick={() => setRotating(e)}>Rotate secret</Menu.Item>
                        <Menu.Item color="red" onClick={() => setDeleting(e)}>
                          Delete
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListStates>

      {endpoints.data
        ?.filter((e) => e.disabledReason)
        .map((e) => (
          <Alert key={e.endpointId} color="red" title={`${e.url} was disabled`}>
            {e.disabledReason}
          </Alert>
        ))}

      {shown ? <DeliveryLog workspaceId={workspaceId} endpointId={shown.endpointId} url={shown.url} /> : null}

      <AddEndpointModal workspaceId={workspaceId} opened={adding} onClose={closeAdd} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        color="red"
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ workspaceId, endpointId: deleting.endpointId })}
      >
        <Text size="sm">
          <b>{deleting?.url}</b> stops receiving events at once, and its delivery log is deleted with it. Events already
          delivered stay with your system.
        </Text>
      </ConfirmModal>
      <ConfirmModal
        opened={rotating !== null}
        onClose={() => setRotating(null)}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        loading={rotate.isPending}
        onConfirm={() => rotating && rotate.mutate({ workspaceId, endpointId: rotating.endpointId })}
      >
        <Text size="sm">
          A new secret signs every delivery from now on. For 24 hours the old one signs too (two signatures in{" "}
          <code>webhook-signature</code>), so you can switch your receiver over without missing an event.
        </Text>
      </ConfirmModal>
      <Modal
        opened={rotatedSecret !== null}
        onClose={() => setRotatedSecret(null)}
        title="Copy the new signing secret"
        size="lg"
      >
        {rotatedSecret ? (
          <SecretReveal
            secret={rotatedSecret}
            onDone={() => setRotatedSecret(null)}
            note="The old secret keeps signing beside this one for 24 hours; switch your receiver to this one before then."
          />
        ) : null}
      </Modal>
    </Stack>
  );
}
