"use client";

import { Button, Group, NumberInput, Paper, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { RoleNote, useCan } from "@/components/access/role";
import { useTRPC } from "@/trpc/react";

/**
 * The programme holdout's share, as a percentage (0 to 50) the owner or an admin sets. Each account
 * is drawn once, when a campaign first enters it or goes live over it, and kept.
 */
export function ProgrammeHoldoutForm({ workspaceId, share }: { workspaceId: string; share: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const can = useCan("administer");
  const [percent, setPercent] = useState<number | string>(Math.round(share * 1000) / 10);
  const save = useMutation(
    trpc.workspace.setProgrammeHoldout.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "teal", message: "Programme holdout saved." });
        await queryClient.invalidateQueries();
      },
      onError: (e) => notifications.show({ color: "red", title: "Could not save", message: e.message }),
    }),
  );
  const value = typeof percent === "number" ? percent : Number.NaN;
  const valid = Number.isFinite(value) && value >= 0 && value <= 50;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4">
        Programme holdout
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A share of the workspace&apos;s accounts that no campaign mails, to measure all mail against none. Each account
        is drawn once, when a campaign first enters it or goes live over it, and keeps its draw; campaigns record those
        accounts held out by the programme. An account another campaign mailed in the last outcome window is never
        drawn.
      </Text>
      <Group align="flex-end">
        <NumberInput
          label="Share of accounts held out by the programme"
          suffix="%"
          min={0}
          max={50}
          decimalScale={1}
          value={percent}
          onChange={setPercent}
          error={valid ? undefined : "Between 0% and 50%."}
          disabled={!can.allowed}
          w={280}
        />
        <RoleNote can={can}>
          <Button
            disabled={!can.allowed || !valid}
            loading={save.isPending}
            onClick={() => save.mutate({ workspaceId, share: Math.round(value * 10) / 1000 })}
          >
            Save
          </Button>
        </RoleNote>
      </Group>
    </Paper>
  );
}
