"use client";

import { Button, Group, Modal, Radio, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatCount } from "@/components/ui/format";
import { schemaRule } from "@/components/ui/name-modal";
import { ZAudienceName } from "@/server/records/audiences/schema";
import { useTRPC } from "@/trpc/react";
import type { ContactFilterValue } from "./contacts-table";

/**
 * Puts contacts in an audience: the chosen ones, or every contact of the current filter; into an
 * existing audience or a new one.
 */
export function AudiencePickerModal({
  workspaceId,
  opened,
  onClose,
  contactIds,
  filter,
  count,
  onDone,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
  contactIds?: string[];
  filter?: ContactFilterValue;
  count: number;
  onDone?: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const audiences = useQuery(trpc.audience.list.queryOptions({ workspaceId }, { enabled: opened }));
  const form = useForm({
    initialValues: { mode: "new" as "new" | "existing", name: "", audienceId: null as string | null },
    validate: {
      name: (v, values) => (values.mode === "new" ? schemaRule(ZAudienceName)(v) : null),
      audienceId: (v, values) => (values.mode === "existing" && !v ? "Choose the audience to add them to." : null),
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const done = (message: string) => {
    void queryClient.invalidateQueries({ queryKey: trpc.audience.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
    notifications.show({ color: "teal", message });
    onDone?.();
    close();
  };
  const create = useMutation(
    trpc.audience.create.mutationOptions({
      onSuccess: (a) => done(`Audience “${a.name}” created with ${formatCount(a.size, "contact")}.`),
      onError: (err) => form.setFieldError("name", err.message),
    }),
  );
  const add = useMutation(
    trpc.audience.addContacts.mutationOptions({
      onSuccess: (r) => done(`${formatCount(r.added, "contact")} added to “${r.audience.name}”.`),
      onError: (err) => form.setFieldError("audienceId", err.message),
    }),
  );
  const submit = form.onSubmit((v) => {
    const who = { contactIds, filter: contactIds ? undefined : cleanFilter(filter) };
    if (v.mode === "new") create.mutate({ workspaceId, name: v.name.trim(), ...who });
    else if (v.audienceId) add.mutate({ workspaceId, audienceId: v.audienceId, ...who });
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={
        contactIds
          ? `Add ${formatCount(count, "selected contact")} to an audience`
          : `Save ${formatCount(count, "contact")} as an audience`
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            An audience is a fixed list: contacts added later do not join it by themselves.
          </Text>
          <Radio.Group {...form.getInputProps("mode")} label="Audience">
            <Group mt="xs">
              <Radio value="new" label="A new audience" />
              <Radio value="existing" label="An existing audience" disabled={!audiences.data?.length} />
            </Group>
          </Radio.Group>
          {form.values.mode === "new" ? (
            <TextInput
              label="Name"
              placeholder="Q1 target accounts"
              required
              data-autofocus
              {...form.getInputProps("name")}
            />
          ) : (
            <Select
              label="Existing audience"
              placeholder="Choose an audience"
              searchable
              required
              data={(audiences.data ?? []).map((a) => ({
                value: a.id,
                label: `${a.name} (${formatCount(a.members, "contact")})`,
              }))}
              {...form.getInputProps("audienceId")}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || add.isPending}>
              {form.values.mode === "new" ? "Create audience" : "Add contacts"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function cleanFilter(f: ContactFilterValue | undefined) {
  if (!f) return {};
  return Object.fromEntries(
    Object.entries(f).filter(([, v]) => v !== null && v !== undefined && v !== ""),
  ) as ContactFilterValue;
}
