"use client";

import { Button, Checkbox, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { webhookEvents, type TWebhookEventType } from "@/server/programme/webhooks/events";

const groups: { label: string; prefixes: string[] }[] = [
  { label: "Entry events", prefixes: ["entry_event."] },
  { label: "Pieces", prefixes: ["piece."] },
  { label: "Responses and outcomes", prefixes: ["response.", "conversion."] },
  { label: "Campaigns", prefixes: ["campaign."] },
  { label: "Audits, imports and CRM syncs", prefixes: ["audit.", "import.", "crm_sync."] },
];

/** Every event type, in the order the picker lists them. */
export const allEventTypes = () => Object.keys(webhookEvents) as TWebhookEventType[];

/** The closed list of event types, grouped, each with what it means, and one control to tick or clear them all. */
export function EventTypePicker(props: { value: string[]; onChange: (v: string[]) => void; error?: string }) {
  const types = allEventTypes();
  const everything = types.every((t) => props.value.includes(t));
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
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => props.onChange(everything ? [] : [...types])}
            aria-pressed={everything}
          >
            {everything ? "Clear all" : "Select all"}
          </Button>
          <Text size="sm" c="dimmed">
            {props.value.length} of {types.length} selected
          </Text>
        </Group>
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
