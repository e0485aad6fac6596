"use client";

import { Alert, Button, Code, CopyButton, Group, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconCopy } from "@tabler/icons-react";

/** A signing secret, shown exactly once, with a copy button and how to use it. */
export function SecretReveal({ secret, onDone, note }: { secret: string; onDone: () => void; note?: string }) {
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Shown once">
        Copy the signing secret now and keep it with your receiver. It cannot be shown again; rotate it to get a new
        one.
      </Alert>
      <Group wrap="nowrap" gap="xs">
        <Code
          block
          style={{ flex: 1, fontSize: 14, wordBreak: "break-all", whiteSpace: "pre-wrap" }}
          aria-label="Signing secret"
        >
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button
              onClick={copy}
              color={copied ? "teal" : undefined}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        {note ??
          "Every delivery carries webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks). Verify them with this secret, for example with the standardwebhooks package, before trusting the body."}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
