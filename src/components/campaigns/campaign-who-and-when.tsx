"use client";

import { Alert, Paper, Radio, Stack, TextInput, Title } from "@mantine/core";
import type { CampaignFormApi } from "./campaign-form-values";

/** "Who gets this, and when?": the entry policy in words, and an optional send date. */
export function WhoAndWhen({ form }: { form: CampaignFormApi }) {
  const policy = form.values.entryPolicy;
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="md">
        Who gets this, and when?
      </Title>
      <Stack gap="md">
        <Radio.Group
          label="Who the campaign mails by itself once it is live"
          description="Frozen when the campaign goes live. Everyone still passes the checks: holdout, suppression, address, frequency, review and budget."
          {...form.getInputProps("entryPolicy")}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="audience_at_go_live" label="Everyone in the audience when it goes live, once" />
            <Radio
              value="audience_joins"
              label="Everyone in the audience when it goes live, and each person added to the audience afterwards"
            />
            <Radio
              value="none"
              label="Nobody by itself: only people you send by hand or your systems send with entry events"
            />
          </Stack>
        </Radio.Group>
        {policy !== "none" ? (
          <TextInput
            label="Send on"
            type="datetime-local"
            description="Optional, in your time zone. Empty: as soon as the campaign goes live. Nobody is mailed before then."
            {...form.getInputProps("sendAt")}
          />
        ) : null}
        {policy === "none" && !form.values.acceptsApiEvents ? (
          <Alert color="yellow" title="Nobody would get this">
            With neither the audience nor entry events from API keys, the campaign cannot go live. Choose who gets it,
            or turn on entry events.
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
