"use client";

import { Anchor, Group, Paper, Progress, Skeleton, Stack, Text, ThemeIcon, Title, VisuallyHidden } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import Link from "next/link";
import type { TCampaignReadiness } from "@/server/programme/campaigns/readiness";

/**
 * Before a draft goes live: every condition, ticked or not, each with a link to where it is fixed.
 * The go-live button stays disabled while any is open, and the server refuses the same way.
 */
export function CampaignReadiness({
  workspaceId,
  readiness,
  onSetBudget,
}: {
  workspaceId: string;
  readiness: TCampaignReadiness | undefined;
  onSetBudget: () => void;
}) {
  if (!readiness) return <Skeleton h={120} />;
  const done = readiness.items.filter((i) => i.ok).length;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="readiness-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="readiness-title">
          Ready to go live?
        </Title>
        <Text size="sm" c={readiness.ready ? "teal.9" : "dimmed"} fw={600}>
          {readiness.ready ? "Ready" : `${done} of ${readiness.items.length} done`}
        </Text>
      </Group>
      <Progress
        value={(done / readiness.items.length) * 100}
        color={readiness.ready ? "teal" : "indigo"}
        mb="sm"
        aria-label={`${done} of ${readiness.items.length} go-live conditions met`}
      />
      <Stack gap={6} component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {readiness.items.map((item) => (
          <Group key={item.key} component="li" gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon size={22} radius="xl" color={item.ok ? "teal" : "red"} variant="light" aria-hidden>
              {item.ok ? <IconCheck size={14} /> : <IconX size={14} />}
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600}>
                <VisuallyHidden>{item.ok ? "Done: " : "To do: "}</VisuallyHidden>
                {item.label}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                {item.detail}{" "}
                {!item.ok &&
                  (item.key === "budget" ? (
                    <Anchor component="button" type="button" size="sm" onClick={onSetBudget}>
                      {fixLabel[item.key]}
                    </Anchor>
                  ) : (
                    <Anchor component={Link} href={`/w/${workspaceId}${item.fix}`} size="sm">
                      {item.key === "mailability" && item.fix.endsWith("#audit") ? "Run the audit" : fixLabel[item.key]}
                    </Anchor>
                  ))}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

const fixLabel: Record<TCampaignReadiness["items"][number]["key"], string> = {
  audience: "Choose or fill the audience",
  entry: "Choose who gets it",
  mailability: "Fix the contacts",
  destination: "Set the destination URL",
  copy: "Write the copy",
  drafts: "Review the drafts",
  plan: "Choose the paid plan",
  printer: "Add or approve a printer",
  budget: "Set the budget",
};
