"use client";

import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { allEventTypes, EventTypePicker } from "./event-type-picker";
import { SecretReveal } from "./secret-reveal";

/** Add an endpoint (https URL, event types), then show its signing secret once. */
export function AddEndpointModal({
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
    initialValues: { url: "", description: "", events: allEventTypes() as string[] },
    validate: {
      url: (v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? null : "Enter the endpoint's full https:// address."),
      events: (v) => (v.length ? null : "Choose at least one event type."),
    },
  });
  const create = useMutation(
    trpc.webhooks.createEndpoint.mutationOptions({
      onSuccess: async (created) => {
        setSecret(created.secret);
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.listEndpoints.queryKey({ workspaceId }) });
      },
      onError: (err) =>
        form.setFieldError(err.data?.fieldErrors?.[0]?.pointer === "/events" ? "events" : "url", err.message),
    }),
  );
  const close = () => {
    setSecret(null);
    form.reset();
    create.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={secret ? "Copy the signing secret" : "Add a webhook endpoint"}
      size="xl"
    >
      {secret ? (
        <SecretReveal secret={secret} onDone={close} />
      ) : (
        <form
          onSubmit={form.onSubmit((v) =>
            create.mutate({ workspaceId, url: v.url.trim(), description: v.description, events: v.events as never }),
          )}
          noValidate
        >
          <Stack>
            <TextInput
              label="URL"
              description="An https address on the public internet that answers 2xx within 15 seconds."
              placeholder="https://hooks.example.com/direct-mail"
              data-autofocus
              required
              {...form.getInputProps("url")}
            />
            <TextInput
              label="Description"
              description="Optional: what receives it, e.g. “Warehouse loader”."
              maxLength={200}
              {...form.getInputProps("description")}
            />
            <EventTypePicker
              value={form.values.events}
              onChange={(v) => form.setFieldValue("events", v)}
              error={form.errors.events as string | undefined}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Add endpoint
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
