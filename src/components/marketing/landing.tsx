"use client";

import { Anchor, Button, Container, Group, List, ListItem, Stack, Text, Title } from "@mantine/core";
import Link from "next/link";

/** The public front page for people who are not signed in. */
export function Landing() {
  return (
    <Container size="sm" py={80} component="main">
      <Stack gap="lg">
        <Title order={1}>Direct mail that proves its lift</Title>
        <Text size="lg">
          Postcards, letters, handwritten notes and gifts, each written for one recipient, sent to contacts from your CRM or a CSV,
          and measured against account-level holdouts, run by your team and its AI agents.
        </Text>
        <List spacing="xs">
          <ListItem>Agents connect over MCP; you approve access in your browser and accept every print, approval and spend.</ListItem>
          <ListItem>A narrow REST API admits contacts to live campaigns and reports conversions.</ListItem>
          <ListItem>The free audit plan does everything except reach a mailbox.</ListItem>
        </List>
        <Group>
          <Button component={Link} href="/sign-up" size="md">
            Create an account
          </Button>
          <Button component={Link} href="/sign-in" size="md" variant="default">
            Sign in
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Service status: <Anchor href="/api/health">/api/health</Anchor>
        </Text>
      </Stack>
    </Container>
  );
}
