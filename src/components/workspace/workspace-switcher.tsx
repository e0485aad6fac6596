"use client";

import { Button, Menu, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDisclosure } from "@mantine/hooks";
import { IconCheck, IconPlus, IconSelector } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/trpc/react";

export interface WorkspaceOption {
  id: string;
  name: string;
  plan: "audit" | "paid";
}

/** Lists the person's workspaces; choosing one opens it. Also creates a new one. */
export function WorkspaceSwitcher({
  current,
  workspaces,
}: {
  current: WorkspaceOption;
  workspaces: WorkspaceOption[];
}) {
  const router = useRouter();
  const trpc = useTRPC();
  const [opened, { open, close }] = useDisclosure(false);
  const form = useForm({
    initialValues: { name: "" },
    validate: { name: (v) => (v.trim().length >= 2 ? null : "A workspace name has at least 2 characters.") },
  });
  const create = useMutation(
    trpc.workspace.create.mutationOptions({
      onSuccess(ws) {
        close();
        router.push(`/w/${ws.id}`);
        router.refresh();
      },
      onError(err) {
        form.setFieldError("name", err.message);
      },
    }),
  );

  return (
    <>
      <Menu position="bottom-start" withArrow>
        <Menu.Target>
          <Button
            variant="default"
            size="sm"
            rightSection={<IconSelector size={14} aria-hidden />}
            aria-label={`Workspace: ${current.name}. Switch workspace`}
          >
            <Text span size="sm" fw={600} truncate maw={180} title={current.name}>
              {current.name}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Workspaces</Menu.Label>
          {workspaces.map((ws) => (
            <Menu.Item
              key={ws.id}
              onClick={() => router.push(`/w/${ws.id}`)}
              rightSection={ws.id === current.id ? <IconCheck size={14} aria-label="current" /> : null}
            >
              {ws.name}
              <Text span size="xs" c="dimmed" ml={6}>
                {ws.plan === "paid" ? "paid" : "audit"}
              </Text>
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconPlus size={14} aria-hidden />} onClick={open}>
            New workspace
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={opened} onClose={close} title="New workspace">
        <form onSubmit={form.onSubmit((v) => create.mutate({ name: v.name }))} noValidate>
          <Stack>
            <TextInput label="Name" data-autofocus required {...form.getInputProps("name")} />
            <Text size="sm" c="dimmed">
              New workspaces start on the free audit plan; you are their owner.
            </Text>
            <Button type="submit" loading={create.isPending}>
              Create workspace
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
