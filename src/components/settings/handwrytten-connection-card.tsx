"use client";

import { Alert, Badge, Button, Card, Code, Group, PasswordInput, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { formatDateTime } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";

/**
 * Settings → Printing, the workspace's own Handwrytten account: paste its API key; the service
 * checks it with Handwrytten, reads whether the account is in test mode, keeps the key encrypted
 * and never shows it again. Handwrytten sends no webhooks, so there is no URL to paste.
 */
export function HandwryttenConnectionCard({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connections = useQuery(trpc.fulfilment.vendorConnections.queryOptions({ workspaceId }));
  const [confirming, setConfirming] = useState<string | null>(null);
  const form = useForm({
    initialValues: { apiKey: "" },
    validate: { apiKey: (v) => (/^\S+$/.test(v.trim()) ? null : "Paste your Handwrytten API key.") },
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.fulfilment.vendorConnections.queryKey({ workspaceId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.fulfilment.contracts.queryKey({ workspaceId }) }),
    ]);
  const connect = useMutation(
    trpc.fulfilment.connectVendor.mutationOptions({
      onSuccess: async (c) => {
        form.reset();
        notifications.show({
          color: "teal",
          title: `Handwrytten connected (${c.mode} mode)`,
          message: "Add a Handwrytten contract for handwritten notes, then approve it.",
        });
        await refresh();
      },
      onError: (err) => form.setFieldError("apiKey", err.message),
    }),
  );
  const disconnect = useMutation(
    trpc.fulfilment.disconnectVendor.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        notifications.show({
          color: "teal",
          title: "Handwrytten disconnected",
          message: "Its key is deleted. Handwrytten contracts write nothing until you connect Handwrytten again.",
        });
        await refresh();
      },
      onError: (err) => notifications.show({ color: "red", title: "Nothing changed", message: err.message }),
    }),
  );
  const current = connections.data?.find((c) => c.vendor === "handwrytten" && c.status !== "disconnected");

  return (
    <Card withBorder padding="md" aria-labelledby="handwrytten-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="handwrytten-title">
            Handwrytten (handwritten notes)
          </Title>
          {current && (
            <Badge color={current.status === "key_revoked" ? "red" : current.mode === "live" ? "teal" : "yellow"}>
              {current.status === "key_revoked"
                ? "Key refused"
                : current.mode === "live"
                  ? "Live"
                  : "Test mode: nothing is written"}
            </Badge>
          )}
        </Group>
        {connections.isPending ? (
          <Skeleton h={80} />
        ) : connections.isError ? (
          <Alert color="red">Could not load the print vendor connections: {connections.error.message}</Alert>
        ) : current ? (
          <Stack gap="xs">
            {current.status === "key_revoked" && (
              <Alert color="red" title="Handwrytten refused the key">
                {current.statusReason ?? "Handwrytten refused the API key."} Handwrytten contracts write nothing until
                you connect Handwrytten again with a valid key.
              </Alert>
            )}
            <Text size="sm">
              Connected by {current.connectedBy} on {formatDateTime(current.connectedAt)}, key ending in{" "}
              <Code>{current.keyHint}</Code>.{" "}
              {current.mode === "test"
                ? "The account is in test mode: Handwrytten accepts every note but writes and mails nothing, so every note through it is a test. Switch test mode off on Handwrytten's Integrations page, then connect again."
                : "The account is live: Handwrytten writes and mails real notes and charges your account."}
            </Text>
            {current.settings.cardName && (
              <Text size="sm">
                Notes are written on <b>{current.settings.cardName}</b> (card {current.settings.cardId}) in the{" "}
                <b>{current.settings.font}</b> handwriting.
              </Text>
            )}
            <Text size="sm" c="dimmed">
              Handwrytten sends no webhooks: each note&apos;s order is read back every hour until it is mailed.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" color="red" onClick={() => setConfirming(current.connectionId)}>
                Disconnect Handwrytten
              </Button>
            </Group>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Send handwritten notes, written by robot with a pen, through your own Handwrytten account. Paste an API key
            from the Integrations page of your Handwrytten dashboard. It is checked with Handwrytten, stored encrypted,
            and never shown again.
          </Text>
        )}
        {!connections.isPending && (!current || current.status === "key_revoked") && (
          <form
            onSubmit={form.onSubmit((v) =>
              connect.mutate({ workspaceId, vendor: "handwrytten", apiKey: v.apiKey.trim() }),
            )}
          >
            <Stack gap="xs">
              <PasswordInput label="Handwrytten API key" autoComplete="off" {...form.getInputProps("apiKey")} />
              <Group justify="flex-end">
                <Button type="submit" loading={connect.isPending}>
                  Connect Handwrytten
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
      <ConfirmModal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Disconnect Handwrytten?"
        confirmLabel="Disconnect"
        color="red"
        loading={disconnect.isPending}
        onConfirm={() => confirming && disconnect.mutate({ workspaceId, connectionId: confirming })}
      >
        The key is deleted. Notes Handwrytten already has are still written and mailed; Handwrytten contracts send
        nothing new until you connect Handwrytten again.
      </ConfirmModal>
    </Card>
  );
}
