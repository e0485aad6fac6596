"use client";

import { ChartFigure } from "@/components/ui/chart-figure";
import { countChartProps } from "@/components/ui/chart-props";
import { StatCard } from "@/components/ui/stat-card";
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { BarChart } from "@mantine/charts";
import { IconAddressBook, IconFileUpload, IconInfoCircle, IconMailbox, IconUsersGroup } from "@tabler/icons-react";
import Link from "next/link";
import type { TWorkspaceSummary } from "@/server/records/workspaces/service";
import { formatCount } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/page-states";
import { FirstRunChecklist } from "./first-run-checklist";

/** The first step of every programme: the people. A new workspace is sent to the import first. */
function PeopleCard({
  workspaceId,
  contacts,
  audiences,
}: {
  workspaceId: string;
  contacts: number;
  audiences: number;
}) {
  const base = `/w/${workspaceId}`;
  if (contacts === 0) {
    return (
      <Paper withBorder p="lg">
        <Title order={2} size="h4">
          Start with your people
        </Title>
        <Text size="sm" c="dimmed" mt={4} maw={640}>
          Import a CSV export of your CRM or a spreadsheet: contacts with their companies and postal addresses. The
          import makes the accounts holdouts are drawn on and an audience a campaign can mail.
        </Text>
        <Group mt="md" gap="xs">
          <Button component={Link} href={`${base}/contacts/import`} leftSection={<IconFileUpload size={16} />}>
            Import contacts from CSV
          </Button>
          <Button component={Link} href={`${base}/contacts`} variant="default">
            Add contacts by hand
          </Button>
        </Group>
      </Paper>
    );
  }
  return (
    <Group gap="xs">
      <Button component={Link} href={`${base}/contacts`} variant="light" leftSection={<IconAddressBook size={16} />}>
        {formatCount(contacts, "contact")}
      </Button>
      <Button component={Link} href={`${base}/audiences`} variant="light" leftSection={<IconUsersGroup size={16} />}>
        {formatCount(audiences, "audience")}
      </Button>
      <Button
        component={Link}
        href={`${base}/contacts/import`}
        variant="default"
        leftSection={<IconFileUpload size={16} />}
      >
        Import more contacts
      </Button>
    </Group>
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
      <PeopleCard workspaceId={summary.id} contacts={counts.contacts} audiences={counts.audiences} />
      <FirstRunChecklist workspaceId={summary.id} />
      {summary.mailingEnabled ? (
        <Alert color="teal" icon={<IconMailbox size={20} />} title="Mailing is on">
          This workspace is on the paid plan. Pieces reach mailboxes once each campaign&apos;s gates pass, through a
          contract with a real printer and a live key; the sandbox and a printer&apos;s test key go through every step
          but mail nobody, and their pieces are counted apart as simulated. When an agent asks to go live, print,
          approve or spend, nothing happens until a person accepts its confirmation card.
        </Alert>
      ) : (
        <Alert color="gray" icon={<IconInfoCircle size={20} />} title="Free audit plan">
          Everything works (contacts, brand kit, designs and drafts) except that nothing reaches a mailbox. Choosing the
          paid plan in Settings turns the mail channel on.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        <StatCard label="Contacts" value={counts.contacts} href={`/w/${summary.id}/contacts`} />
        <StatCard label="Accounts" value={counts.accounts} href={`/w/${summary.id}/accounts`} />
        <StatCard label="Audiences" value={counts.audiences} href={`/w/${summary.id}/audiences`} />
        <StatCard label="Live campaigns" value={counts.campaigns.live} href={`/w/${summary.id}/campaigns`} />
        <StatCard label="Pieces mailed" value={counts.piecesMailed} href={`/w/${summary.id}/campaigns`} />
        {counts.piecesSimulated > 0 && (
          <StatCard
            label="Simulated (sandbox or test key, not mailed)"
            value={counts.piecesSimulated}
            href={`/w/${summary.id}/campaigns`}
          />
        )}
        <StatCard label="Active API keys" value={counts.activeApiKeys} href={`/w/${summary.id}/settings/api-keys`} />
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
          <ChartFigure label={campaignRows.map((r) => `${r.status}: ${r.Campaigns}`).join(", ")}>
            <BarChart
              {...countChartProps}
              h={220}
              data={campaignRows}
              dataKey="status"
              series={[{ name: "Campaigns", color: "indigo.6" }]}
              tickLine="y"
              withTooltip
            />
          </ChartFigure>
        )}
      </Paper>
    </Stack>
  );
}
