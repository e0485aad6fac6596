"use client";

import { Checkbox, SimpleGrid, Stack, Text } from "@mantine/core";
import { webhookEvents, type TWebhookEventType } from "@/server/programme/webhooks/events";

const groups: { label: string; prefixes: string[] }[] = [
  { label: "Entry events", prefixes: ["entry_event."] },
  { label: "Pieces", prefixes: ["piece."] },
  { label: "Responses and outcomes", prefixes: ["response.", "conversion."] },
  { label: "Campaigns", prefixes: ["campaign."] },
  { label: "Audits, imports and CRM syncs", prefixes: ["audit.", "import.", "crm_sync."] },
];

/** The closed list of event types, grouped, each with what it means. */
export function EventTypePicker(props: { value: string[]; onChange: (v: string[]) => void; error?: string }) {
  const types = Object.keys(webhookEvents) as TWebhookEventType[];
  const sections = groups.map((g) => ({
    label: g.label,
    types: types.filter((t) => g.prefixes.some((p) => t.startsWith(p))),
  }));
  return (
    <Checkbox.Group
      label="Events"
      description="What this endpoint receives."
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      required
    >
      <Stack gap="md" mt="xs">
        {sections.map((s) => (
          <div key={s.label}>
            <Text size="sm" fw={600} mb={4}>
              {s.label}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              {s.types.map((t) => (
                <Checkbox key={t} value={t} label={t} description={webhookEvents[t].summary} />
              ))}
            </SimpleGrid>
          </div>
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
