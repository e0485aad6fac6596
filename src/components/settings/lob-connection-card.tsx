"use client";

import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { formatDateTime } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

/**
 * Settings → Printing, the workspace's own Lob account: paste a secret API key and the webhook's
 * signing secret; the service checks the key with Lob, keeps both encrypted and never shows them
 * again, and shows the webhook URL to paste into Lob's dashboard.
 */
export function LobConnectionCard({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connections = useQuery(trpc.fulfilment.vendorConnections.queryOptions({ workspaceId }));
  const [confirming, setConfirming] = useState<string | null>(null);
  const form = useForm({
    initialValues: { apiKey: "", webhookSecret: "" },
    validate: {
      apiKey: (v) =>
        /^(test|live)_\S+$/.test(v.trim()) ? null : "Paste a Lob secret API key: it starts with test_ or live_.",
      webhookSecret: (v) => (v.trim() ? null : "Paste the webhook's signing secret from Lob's dashboard."),
    },
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
          title: `Lob connected (${c.mode} mode)`,
          message: "Paste the webhook URL into Lob's dashboard so tracking reaches this workspace.",
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
          title: "Lob disconnected",
          message: "Its keys are deleted. Lob contracts print nothing until you connect Lob again.",
        });
        await refresh();
      },
      onError: (err) => notifications.show({ color: "red", title: "Nothing changed", message: err.message }),
    }),
  );
  const current = connections.data?.find((c) => c.vendor === "lob" && c.status !== "disconnected");

  return (
    <Card withBorder padding="md" aria-labelledby="lob-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="lob-title">
            Lob (real print and mail)
          </Title>
          {current && (
            <Badge color={current.status === "key_revoked" ? "red" : current.mode === "live" ? "teal" : "yellow"}>
              {current.status === "key_revoked"
                ? "Key refused"
                : current.mode === "live"
                  ? "Live"
                  : "Test mode: nothing is printed"}
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
              <Alert color="red" title="Lob refused the key">
                {current.statusReason ?? "Lob refused the API key."} Lob contracts print nothing until you connect Lob
                again with a valid key.
              </Alert>
            )}
            <Text size="sm">
              Connected by {current.connectedBy} on {formatDateTime(current.connectedAt)}, key ending in{" "}
              <Code>{current.keyHint}</Code>.{" "}
              {current.mode === "test"
                ? "A test key prints and mails nothing: every piece through it is a test."
                : "A live key prints and mails real pieces, which Lob charges to your account."}
            </Text>
            <Text size="sm">
              Webhook URL to paste into Lob&apos;s dashboard (Webhooks → Create), for the postcard and letter tracking
              events:
            </Text>
            {/* The button keeps its whole label: it never shrinks, and goes under the URL when both do not fit on one line. */}
            <Group gap="xs" wrap="wrap">
              <Code style={{ flex: "1 1 16rem", minWidth: 0, overflowWrap: "anywhere" }}>{current.webhookUrl}</Code>
              <CopyButton value={current.webhookUrl ?? ""}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy} style={{ flexShrink: 0 }}>
                    {copied ? "Copied" : "Copy"}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Group justify="flex-end">
              <IfCan action="administer">
                <Button variant="default" color="red" onClick={() => setConfirming(current.connectionId)}>
                  Disconnect Lob
                </Button>
              </IfCan>
            </Group>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Print and mail real postcards and letters through your own Lob account. Paste a secret API key from
            Lob&apos;s dashboard (a test_ key to try it: nothing is printed) and the signing secret of the webhook you
            create there. They are checked with Lob, stored encrypted, and never shown again.
          </Text>
        )}
        {!connections.isPending && (!current || current.status === "key_revoked") && (
          <form
            onSubmit={form.onSubmit((v) =>
              connect.mutate({
                workspaceId,
                vendor: "lob",
                apiKey: v.apiKey.trim(),
                webhookSecret: v.webhookSecret.trim(),
              }),
            )}
          >
            <Stack gap="xs">
              <PasswordInput
                label="Lob secret API key"
                placeholder="test_… or live_…"
                autoComplete="off"
                {...form.getInputProps("apiKey")}
              />
              <PasswordInput
                label="Webhook signing secret"
                description="Lob shows it for the webhook you create in its dashboard."
                autoComplete="off"
                {...form.getInputProps("webhookSecret")}
              />
              <Group justify="flex-end">
                <IfCan action="administer">
                  <Button type="submit" loading={connect.isPending}>
                    Connect Lob
                  </Button>
                </IfCan>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
      <ConfirmModal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Disconnect Lob?"
        confirmLabel="Disconnect"
        color="red"
        loading={disconnect.isPending}
        onConfirm={() => confirming && disconnect.mutate({ workspaceId, connectionId: confirming })}
      >
        The keys are deleted. Pieces Lob already has are still mailed; Lob contracts send nothing new until you connect
        Lob again.
      </ConfirmModal>
    </Card>
  );
}
