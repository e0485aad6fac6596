"use client";

import { Alert, Paper, Stack, Switch, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

/** The signed-in person's notification emails, each on or off (for every workspace of theirs). */
export function NotificationSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.notifications.settings.queryOptions());
  const update = useMutation(
    trpc.notifications.update.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.notifications.settings.queryKey() }),
    }),
  );
  return (
    <Paper withBorder p="lg">
      <Stack>
        <div>
          <Title order={2} size="h4">
            Email notifications
          </Title>
          <Text size="sm" c="dimmed">
            Your own choice, in every workspace you belong to. Password resets and invitations are always sent.
          </Text>
        </div>
        {update.error && (
          <Alert color="red" role="alert" title="Could not save">
            {update.error.message}
          </Alert>
        )}
        {settings.data?.map((s) => (
          <Switch
            key={s.kind}
            label={s.label}
            description={s.description}
            checked={s.on}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ kind: s.kind, on: e.currentTarget.checked })}
          />
        ))}
      </Stack>
    </Paper>
  );
}
