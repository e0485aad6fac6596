"use client";

import { Alert, Button, Group, MultiSelect, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TConnectionView } from "@/server/programme/crm/schema";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

/**
 * Which deals count as outcomes: the pipelines and stages read from the CRM when the owner opens
 * the control. Empty choices mean every pipeline or every stage. Amounts are counted in US dollars;
 * a deal in another currency counts without its amount.
 */
export function DealFilter({ workspaceId, connection: c }: { workspaceId: string; connection: TConnectionView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [pipelines, setPipelines] = useState<string[]>(c.dealFilter.pipelines ?? []);
  const [stages, setStages] = useState<string[]>(c.dealFilter.stages ?? []);
  const options = useQuery({
    ...trpc.crm.dealOptions.queryOptions({ workspaceId, connectionId: c.connectionId }),
    enabled: open,
    staleTime: 60_000,
  });
  const save = useMutation(
    trpc.crm.setDealFilter.mutationOptions({
      onSuccess: async () => {
        notifications.show({
          color: "teal",
          title: "Saved",
          message: "The next sync counts only these deals, and removes the outcomes of the others.",
        });
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.crm.connections.queryKey({ workspaceId }) });
      },
      onError: (err) => notifications.show({ color: "red", title: "Nothing changed", message: err.message }),
    }),
  );
  const summary =
    !c.dealFilter.pipelines && !c.dealFilter.stages
      ? "Every deal in every pipeline counts as an opportunity."
      : `Counting deals in ${c.dealFilter.pipelines ? `${c.dealFilter.pipelines.length} chosen pipeline${c.dealFilter.pipelines.length > 1 ? "s" : ""}` : "every pipeline"}, at ${c.dealFilter.stages ? `${c.dealFilter.stages.length} chosen stage${c.dealFilter.stages.length > 1 ? "s" : ""}` : "every stage"}.`;
  const currency =
    c.currency && c.currency !== "USD"
      ? ` This CRM's currency is ${c.currency}: amounts here are in US dollars, so its deals count without their amounts.`
      : "";

  if (!open) {
    return (
      <Group justify="space-between" align="center" wrap="wrap">
        <Text size="sm" c="dimmed">
          {summary}
          {currency}
        </Text>
        <IfCan action="administer">
          <Button variant="default" size="xs" onClick={() => setOpen(true)} disabled={c.status !== "connected"}>
            Choose which deals count
          </Button>
        </IfCan>
      </Group>
    );
  }
  const pipelineData = (options.data?.pipelines ?? []).map((p) => ({ value: p.id, label: p.label }));
  const stageData = (options.data?.pipelines ?? [])
    .filter((p) => !pipelines.length || pipelines.includes(p.id))
    .map((p) => ({ group: p.label, items: p.stages.map((s) => ({ value: s.id, label: s.label })) }));
  return (
    <Stack gap="xs">
      {options.isError && (
        <Alert color="red" title="The pipelines could not be read">
          {options.error.message}
        </Alert>
      )}
      <Group align="flex-end" wrap="wrap">
        <MultiSelect
          label="Pipelines that count"
          placeholder={pipelines.length ? undefined : "Every pipeline"}
          data={pipelineData}
          value={pipelines}
          onChange={setPipelines}
          disabled={options.isPending}
          searchable
          clearable
          miw={240}
        />
        <MultiSelect
          label="Stages that count"
          placeholder={stages.length ? undefined : "Every stage"}
          data={stageData}
          value={stages}
          onChange={setStages}
          disabled={options.isPending}
          searchable
          clearable
          miw={240}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {options.isPending
          ? "Reading the pipelines from the CRM…"
          : "Leave a box empty to count every pipeline or every stage. Deals outside the choice lose their outcomes at the next sync."}
      </Text>
      <Group gap="xs">
        <Button
          size="xs"
          loading={save.isPending}
          onClick={() =>
            save.mutate({
              workspaceId,
              connectionId: c.connectionId,
              pipelines: pipelines.length ? pipelines : null,
              stages: stages.length ? stages : null,
            })
          }
        >
          Save
        </Button>
        <Button size="xs" variant="subtle" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
