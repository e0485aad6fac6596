"use client";

import { Anchor, Container, Group, Stack, Text } from "@mantine/core";
import Link from "next/link";
import type { ReactNode } from "react";

/** The frame of public documentation pages. */
export function DocPage({ children }: { children: ReactNode }) {
  return (
    <Container size="md" py="xl" component="main">
      <Stack gap="lg">
        <Group justify="space-between">
          <Anchor component={Link} href="/" fw={700} c="dark" underline="never">
            Direct Mail Programme
          </Anchor>
          <Group gap="md">
            <Anchor component={Link} href="/docs/api" size="sm">
              API reference
            </Anchor>
            <Anchor component={Link} href="/docs/lifecycle" size="sm">
              Entry lifecycle
            </Anchor>
            <Anchor component={Link} href="/problems" size="sm">
              Problem types
            </Anchor>
          </Group>
        </Group>
        {children}
        <Text size="xs" c="dimmed">
          Machine-readable: <Anchor href="/openapi.json">/openapi.json</Anchor>
        </Text>
      </Stack>
    </Container>
  );
}
