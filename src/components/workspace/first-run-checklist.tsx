"use client";

import { Anchor, Group, Paper, Progress, Stack, Text, ThemeIcon, Title, VisuallyHidden } from "@mantine/core";
import { IconCheck, IconChevronRight } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";

/**
 * The guided first run on the overview: each step from an empty workspace to a live programme,
 * ticked from what the workspace holds, with a link to where it is done. Gone once all are done.
 */
export function FirstRunChecklist({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const checklist = useQuery(trpc.workspace.firstRun.queryOptions({ workspaceId }));
  const data = checklist.data;
  if (!data || data.done === data.total) return null;
  const next = data.steps.find((s) => !s.done);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="first-run-heading">
      <Group justify="space-between" align="flex-end" mb="xs">
        <Title order={2} size="h4" id="first-run-heading">
          From here to a live programme
        </Title>
        <Text size="sm" c="dimmed">
          {data.done} of {data.total} done
        </Text>
      </Group>
      <Progress
        value={(data.done / data.total) * 100}
        size="sm"
        mb="md"
        aria-label={`${data.done} of ${data.total} steps done`}
      />
      <Stack gap={6} component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {data.steps.map((step) => (
          <Group key={step.key} component="li" gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon
              size={22}
              radius="xl"
              color={step.done ? "teal" : "gray"}
              variant={step.done ? "filled" : "light"}
              mt={2}
              aria-hidden
            >
              {step.done ? (
                <IconCheck size={14} />
              ) : (
                <Text size="xs" fw={700}>
                  {data.steps.indexOf(step) + 1}
                </Text>
              )}
            </ThemeIcon>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Anchor
                component={Link}
                href={`/w/${workspaceId}/${step.path}`}
                fw={step === next ? 700 : 500}
                c={step.done ? "dimmed" : undefined}
                td={step.done ? "line-through" : undefined}
              >
                {step.title}
                {step.done && <VisuallyHidden> (done)</VisuallyHidden>}
              </Anchor>
              <Text size="sm" c="dimmed">
                {step.detail}
              </Text>
            </div>
            {step === next && <IconChevronRight size={18} aria-hidden style={{ marginTop: 4, flexShrink: 0 }} />}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
