"use client";

import { Alert, Button, Checkbox, Code, CopyButton, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertTriangle, IconCheck, IconCopy } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type TApiKeyScope, API_KEY_SCOPES } from "@/server/ground/access/principals";
import { scopeDescriptions } from "@/server/records/api-keys/schema";
import { useTRPC } from "@/trpc/react";

/** Create a key (both scopes checked by default), then show its secret exactly once. */
export function CreateApiKeyModal({
  workspaceId,
  opened,
  onClose,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: "", scopes: [...API_KEY_SCOPES] as TApiKeyScope[] },
    validate: {
      name: (v) => (v.trim() ? null : "Give the key a name."),
      scopes: (v) => (v.length ? null : "Choose at least one scope."),
    },
  });
  const create = useMutation(
    trpc.apiKey.create.mutationOptions({
      onSuccess: async (created) => {
        setSecret(created.secret);
        await queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey({ workspaceId }) });
      },
      onError: (err) => form.setFieldError("name", err.message),
    }),
  );
  const close = () => {
    setSecret(null);
    form.reset();
    create.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={secret ? "Copy your new key" : "Create an API key"} size="lg">
      {secret ? (
        <Stack>
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Shown once">
            Copy the key now and keep it in your secret store. It is not stored here and cannot be shown again.
          </Alert>
          <Group wrap="nowrap" gap="xs">
            <Code block style={{ flex: 1, fontSize: 14 }} aria-label="New API key">
              {secret}
            </Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button
                  onClick={copy}
                  color={copied ? "teal" : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                >
                  {copied ? "Copied" : "Copy"}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm" c="dimmed">
            Send it as <Code>Authorization: Bearer &lt;key&gt;</Code> to the endpoints under <Code>/api/v1</Code>.
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((v) => create.mutate({ workspaceId, ...v }))} noValidate>
          <Stack>
            <TextInput
              label="Name"
              description="Where the key is used, e.g. “HubSpot workflow”."
              data-autofocus
              required
              {...form.getInputProps("name")}
            />
            <Checkbox.Group
              label="Scopes"
              description="What the key may do. A key can never read or browse workspace data."
              {...form.getInputProps("scopes")}
            >
              <Stack gap="xs" mt="xs">
                {API_KEY_SCOPES.map((scope) => (
                  <Checkbox key={scope} value={scope} label={scope} description={scopeDescriptions[scope]} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
