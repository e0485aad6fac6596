"use client";

import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { TJobView } from "@/server/records/jobs/schema";
import { formatNumber } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

const statusColor: Record<TJobView["status"], string> = {
  queued: "gray",
  running: "blue",
  succeeded: "green",
  failed: "red",
  cancelled: "orange",
};
const statusLabel: Record<TJobView["status"], string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m} min ${seconds % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "12,000 of 100,000 rows · 8,200 rows/s · about 11 s left" */
export function jobProgressLine(job: TJobView): string {
  const { done, total, unit, ratePerSecond, secondsLeft } = job.progress;
  const parts = [
    total != null ? `${formatNumber(done)} of ${formatNumber(total)} ${unit}` : `${formatNumber(done)} ${unit}`,
  ];
  if (ratePerSecond != null && done > 0) parts.push(`${formatNumber(Math.round(ratePerSecond))} ${unit}/s`);
  if (secondsLeft != null && job.status === "running") parts.push(`about ${duration(secondsLeft)} left`);
  return parts.join(" · ");
}

/**
 * The progress of one job (an import, an audit, a render, a CRM sync): a bar with done / total,
 * rate and time left, polled while it runs, a way to cancel, and the error if it failed.
 * `onFinished` runs once when the job ends, with its final view.
 */
export function JobProgress({
  workspaceId,
  jobId,
  onFinished,
  cancellable = true,
}: {
  workspaceId: string;
  jobId: string;
  onFinished?: (job: TJobView) => void;
  cancellable?: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const job = useQuery({
    ...trpc.job.get.queryOptions({ workspaceId, jobId }),
    refetchInterval: (q) =>
      q.state.data && ["succeeded", "failed", "cancelled"].includes(q.state.data.status) ? false : 1000,
  });
  const cancel = useMutation(
    trpc.job.cancel.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.job.get.queryKey({ workspaceId, jobId }), data),
    }),
  );
  const reported = useRef(false);
  const data = job.data;
  useEffect(() => {
    if (data && ["succeeded", "failed", "cancelled"].includes(data.status) && !reported.current) {
      reported.current = true;
      onFinished?.(data);
    }
  }, [data, onFinished]);

  if (job.isError)
    return (
      <Alert color="red" title="The job's progress could not be read">
        {job.error.message}
      </Alert>
    );
  if (!data) return <Progress value={0} animated striped aria-label="Starting" />;
  const active = data.status === "queued" || data.status === "running";
  const percent = data.progress.percent ?? (active ? 100 : 0);
  return (
    <Paper withBorder p="md" aria-live="polite">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" truncate title={data.title}>
            {data.title}
          </Text>
          <Badge color={statusColor[data.status]} variant="light" style={{ flexShrink: 0 }}>
            {data.cancelRequested && active ? "Cancelling" : statusLabel[data.status]}
          </Badge>
        </Group>
        <Progress
          value={percent}
          animated={active}
          striped={active && data.progress.percent == null}
          color={data.status === "failed" ? "red" : data.status === "cancelled" ? "orange" : undefined}
          aria-label={`${data.title}: ${data.progress.percent != null ? `${data.progress.percent}%` : statusLabel[data.status]}`}
        />
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed">
            {data.status === "queued" ? "Waiting for a worker…" : jobProgressLine(data)}
          </Text>
          {cancellable && active && !data.cancelRequested && (
            <IfCan action="prepare">
              <Button
                size="xs"
                variant="subtle"
                color="red"
                loading={cancel.isPending}
                onClick={() => cancel.mutate({ workspaceId, jobId })}
              >
                Cancel
              </Button>
            </IfCan>
          )}
        </Group>
        {data.error && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs">
            {data.error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
