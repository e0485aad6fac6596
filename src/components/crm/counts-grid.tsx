import { SimpleGrid, Text } from "@mantine/core";
import type { TSyncCounts } from "@/server/programme/crm/schema";
import { formatCount, formatNumber } from "@/components/ui/format";

/** The counts of a sync by object type, as four figures (five when it read Salesforce Leads, which are not counted among contacts). */
export function CountsGrid({ counts }: { counts: TSyncCounts }) {
  const leads = counts.leads.read + counts.leads.converted + counts.deleted.leads > 0;
  const figure = (label: string, main: string, detail: string) => (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700}>{main}</Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </div>
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: leads ? 5 : 4 }} spacing="sm">
      {figure(
        "Contacts",
        `${formatNumber(counts.contacts.read)} read`,
        `${formatNumber(counts.contacts.created)} new, ${formatNumber(counts.contacts.updated)} updated, ${formatNumber(counts.contacts.errors)} not synced`,
      )}
      {leads &&
        figure(
          "Leads",
          `${formatNumber(counts.leads.read)} read`,
          `${formatNumber(counts.leads.created)} new, ${formatNumber(counts.leads.updated)} updated, ${formatNumber(counts.leads.converted)} converted, ${formatNumber(counts.deleted.leads)} deleted, ${formatNumber(counts.leads.errors)} not synced`,
        )}
      {figure(
        "Accounts",
        `${formatNumber(counts.companies.read)} read`,
        `${formatNumber(counts.companies.created)} new, ${formatNumber(counts.companies.updated)} updated`,
      )}
      {figure(
        "Deals",
        `${formatNumber(counts.deals.read)} read`,
        `${formatCount(counts.outcomes.created, "outcome")} recorded, ${formatNumber(counts.outcomes.updated)} updated, ${formatNumber(counts.deals.errors)} not counted`,
      )}
      {figure(
        "Lists",
        `${formatNumber(counts.lists.read)} read`,
        `${formatCount(counts.audienceMembers.added, "member")} added, ${formatNumber(counts.audienceMembers.removed)} removed; ${formatCount(counts.suppressions.added, "opt-out")} suppressed`,
      )}
    </SimpleGrid>
  );
}
