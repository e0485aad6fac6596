"use client";

import { Alert, Button, Group, Modal, Radio, Select, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatNumber } from "@/components/ui/format";
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
  const [mode, setMode] = useState<"new" | "existing">("new");
  const [name, setName] = useState("");
  const [audienceId, setAudienceId] = useState<string | null>(null);
  const done = (message: string) => {
    void queryClient.invalidateQueries({ queryKey: trpc.audience.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
    notifications.show({ color: "teal", message });
    setName("");
    onDone?.();
    onClose();
  };
  const create = useMutation(trpc.audience.create.mutationOptions({ onSuccess: (a) => done(`Audience “${a.name}” created with ${formatNumber(a.size)} contacts.`) }));
  const add = useMutation(trpc.audience.addContacts.mutationOptions({ onSuccess: (r) => done(`${formatNumber(r.added)} contacts added to “${r.audience.name}”.`) }));
  const error = create.error ?? add.error;
  const submit = () => {
    if (mode === "new") create.mutate({ workspaceId, name, contactIds, filter: contactIds ? undefined : cleanFilter(filter) });
    else if (audienceId) add.mutate({ workspaceId, audienceId, contactIds, filter: contactIds ? undefined : cleanFilter(filter) });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={contactIds ? `Add ${formatNumber(count)} selected contacts to an audience` : `Save ${formatNumber(count)} contacts as an audience`}>
      <Stack>
        <Text size="sm" c="dimmed">
          An audience is a fixed list: contacts added later do not join it by themselves.
        </Text>
        <Radio.Group value={mode} onChange={(v) => setMode(v as "new" | "existing")} label="Audience">
          <Group mt="xs">
            <Radio value="new" label="A new audience" />
            <Radio value="existing" label="An existing audience" disabled={!audiences.data?.length} />
          </Group>
        </Radio.Group>
        {mode === "new" ? (
          <TextInput label="Name" placeholder="Q1 target accounts" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={120} data-autofocus />
        ) : (
          <Select
            label="Existing audience"
            placeholder="Choose an audience"
            searchable
            data={(audiences.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${formatNumber(a.members)})` }))}
            value={audienceId}
            onChange={setAudienceId}
          />
        )}
        {error && <Alert color="red">{error.message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={create.isPending || add.isPending} disabled={mode === "new" ? !name.trim() : !audienceId}>
            {mode === "new" ? "Create audience" : "Add contacts"}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function cleanFilter(f: ContactFilterValue | undefined) {
  if (!f) return {};
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null && v !== undefined && v !== "")) as ContactFilterValue;
}
