"use client";

import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { BarChart } from "@mantine/charts";
import { IconInfoCircle, IconMailbox } from "@tabler/icons-react";
import type { TWorkspaceSummary } from "@/server/workspaces/service";
import { EmptyState } from "@/components/ui/page-states";

const number = new Intl.NumberFormat("en-US");

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={28} fw={700} mt={4}>
        {number.format(value)}
      </Text>
    </Paper>
  );
}

export function WorkspaceOverview({ summary }: { summary: TWorkspaceSummary }) {
  const { counts } = summary;
  const campaignRows = (["draft", "live", "paused", "ended"] as const).map((status) => ({
    status: status[0].toUpperCase() + status.slice(1),
    Campaigns: counts.campaigns[status],
  }));
  const totalCampaigns = campaignRows.reduce((n, r) => n + r.Campaigns, 0);

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {summary.name}
        </Title>
      </Group>
      {summary.mailingEnabled ? (
        <Alert color="teal" icon={<IconMailbox size={20} />} title="Mailing is on">
          This workspace is on the paid plan. Pieces reach mailboxes once each campaign&apos;s gates pass; printing, approval and
          spending still wait for a person to accept a confirmation card.
        </Alert>
      ) : (
        <Alert color="gray" icon={<IconInfoCircle size={20} />} title="Free audit plan">
          Everything works (contacts, the mailability audit, brand kit, designs and drafts) except that nothing reaches a
          mailbox. Choosing a paid plan turns the mail channel on.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        <Stat label="Contacts" value={counts.contacts} />
        <Stat label="Accounts" value={counts.accounts} />
        <Stat label="Audiences" value={counts.audiences} />
        <Stat label="Live campaigns" value={counts.campaigns.live} />
        <Stat label="Pieces mailed" value={counts.piecesMailed} />
        <Stat label="Active API keys" value={counts.activeApiKeys} />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="md">
          Campaigns by status
        </Title>
        {totalCampaigns === 0 ? (
          <EmptyState title="No campaigns yet">
            A campaign mails one audience in one format, against an account-level holdout. Campaigns you or your agents
            create will show here.
          </EmptyState>
        ) : (
          <BarChart
            h={220}
            data={campaignRows}
            dataKey="status"
            series={[{ name: "Campaigns", color: "indigo.6" }]}
            tickLine="y"
            withTooltip
            aria-label={campaignRows.map((r) => `${r.status}: ${r.Campaigns}`).join(", ")}
          />
        )}
      </Paper>
    </Stack>
  );
}
