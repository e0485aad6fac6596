"use client";

import { Alert, Anchor, Group, Image, List, Paper, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";

interface CardParams {
  warnings?: string[];
  sample?: {
    contactId: string;
    draftId: string | null;
    recipient: string;
    headline: string;
    body: string;
    signOff: string;
  } | null;
}

/**
 * What a go-live card approves, as the person deciding it must see it: what stands in the way of
 * mail (the free audit plan, no printer, no budget), the copy filled for a sample recipient, and that
 * recipient's rendered draft when drafts were generated.
 */
export function CardCopySample({ workspaceId, params }: { workspaceId: string; params: unknown }) {
  const { warnings = [], sample = null } = (params ?? {}) as CardParams;
  if (!warnings.length && !sample) return null;
  const proof = sample?.draftId ? `/api/drafts/${sample.draftId}/proof?workspaceId=${workspaceId}` : null;
  return (
    <Stack gap="sm" mt="sm">
      {warnings.length > 0 && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title="Even if you accept, nothing is mailed yet"
        >
          <List size="sm" spacing={2}>
            {warnings.map((w) => (
              <List.Item key={w}>{w}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {sample && (
        <Paper withBorder p="sm" radius="sm" bg="gray.0">
          <Group align="flex-start" gap="md" wrap="wrap">
            {proof && (
              <Anchor
                href={proof}
                target="_blank"
                rel="noopener"
                aria-label={`Open ${sample.recipient}'s draft as a PDF`}
              >
                <Image
                  src={`${proof}&format=png&page=1&width=360`}
                  alt={`Front of ${sample.recipient}'s piece`}
                  w={180}
                  h="auto"
                  fit="contain"
                  radius="xs"
                />
              </Anchor>
            )}
            <Stack gap={4} style={{ flex: "1 1 240px", minWidth: 0 }}>
              <Text size="xs" fw={600} tt="uppercase" c="gray.7">
                The copy you approve, for {sample.recipient || "a sample recipient"}
              </Text>
              <Text fw={600}>{sample.headline}</Text>
              <Text size="sm" style={{ whiteSpace: "pre-line", overflowWrap: "anywhere" }} lineClamp={6}>
                {sample.body}
              </Text>
              {sample.signOff && <Text size="sm">{sample.signOff}</Text>}
              {proof && (
                <Anchor size="sm" href={proof} target="_blank" rel="noopener">
                  Open the print file (PDF)
                </Anchor>
              )}
            </Stack>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
