"use client";

import {
  Anchor,
  Button,
  Code,
  Container,
  Group,
  Image,
  List,
  ListItem,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import Link from "next/link";

const steps = [
  [
    "Bring your people in",
    "Import contacts from a CSV file: columns mapped for you, duplicates merged, companies grouped into accounts, audiences and suppressions kept.",
  ],
  [
    "Write for each recipient",
    "A brand kit, designs for postcards, letters, handwritten notes and gift cards, and a draft for every recipient you can read and edit before anything is printed.",
  ],
  [
    "Go live with a holdout",
    "A share of accounts is held out and never mailed, so the difference in pipeline and revenue is the mail's own lift, with its confidence interval.",
  ],
  [
    "Keep a person in charge",
    "Printing, approval and spending wait for the owner to accept a confirmation card in the browser, whoever asked: a teammate's system or an AI agent.",
  ],
] as const;

/** The public front page for people who are not signed in. */
export function Landing({ mcpUrl }: { mcpUrl: string }) {
  return (
    <Container size="lg" py={56} component="main">
      <Stack gap={48}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40}>
          <Stack gap="lg" justify="center">
            <Title order={1}>Direct mail that proves its lift</Title>
            <Text size="lg">
              Postcards, letters, handwritten notes and gifts, each written for one recipient, sent to the contacts you
              bring in, and measured against account-level holdouts. Run by your team and its AI agents.
            </Text>
            <Text>
              The free audit plan does everything except reach a mailbox: import, brand kit, designs and per-recipient
              drafts. Choose the paid plan and approve a printer when you are ready to mail.
            </Text>
            <Group>
              <Button component={Link} href="/sign-up" size="md">
                Create a free account
              </Button>
              <Button component={Link} href="/sign-in" size="md" variant="default">
                Sign in
              </Button>
            </Group>
          </Stack>
          <Stack gap="xs">
            <Image
              src="/sample-piece/front.png"
              alt="The front of a 6 by 9 inch postcard: 'Maya, your Q3 forecast, on paper' on indigo, with an orange sunrise artwork."
              radius="sm"
              style={{ boxShadow: "0 6px 24px rgba(20, 20, 60, 0.18)" }}
            />
            <Image
              src="/sample-piece/back.png"
              alt="The address side: a personal note about Lakeside Logistics, the signature, a QR code with its response link, and the recipient's address."
              radius="sm"
              style={{ boxShadow: "0 6px 24px rgba(20, 20, 60, 0.18)" }}
            />
            <Text size="sm" c="dimmed">
              A 6 × 9 in postcard for one recipient, drawn by the same renderer that makes every proof and printed
              piece.
            </Text>
          </Stack>
        </SimpleGrid>

        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 4 }}
          component="ol"
          style={{ listStyle: "none", padding: 0, margin: 0 }}
        >
          {steps.map(([title, body], i) => (
            <Paper key={title} withBorder p="md" component="li">
              <Text size="sm" c="dimmed" fw={700}>
                Step {i + 1}
              </Text>
              <Title order={2} size="h4" mt={4}>
                {title}
              </Title>
              <Text size="sm" mt="xs">
                {body}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>

        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Stack gap="xs">
            <Title order={2} size="h3">
              Plan before you mail
            </Title>
            <Text size="sm">
              Free calculators, no account needed: how many accounts to hold out, what lift a test can detect, and what
              a programme costs.
            </Text>
            <Anchor component={Link} href="/tools">
              Open the calculators
            </Anchor>
          </Stack>
          <Stack gap="xs">
            <Title order={2} size="h3">
              For your systems
            </Title>
            <Text size="sm">
              A narrow REST API with scoped keys: admit a contact to a live campaign, follow its status, report a
              conversion.
            </Text>
            <List size="sm" spacing={2}>
              <ListItem>
                <Anchor href="/docs/api">API reference</Anchor> and <Anchor href="/openapi.json">openapi.json</Anchor>
              </ListItem>
              <ListItem>
                <Anchor href="/docs/lifecycle">What happens to an entry event</Anchor>
              </ListItem>
              <ListItem>
                <Anchor href="/docs/mailability">Which contacts can be mailed, and why not</Anchor>
              </ListItem>
            </List>
          </Stack>
          <Stack gap="xs">
            <Title order={2} size="h3">
              For your agents
            </Title>
            <Text size="sm">
              Add <Code>{mcpUrl}</Code> to your MCP client as a remote server. It signs in with OAuth; you approve it
              and choose its scopes in the browser.
            </Text>
            <List size="sm" spacing={2}>
              <ListItem>
                <Anchor href="/llms.txt">llms.txt</Anchor>: everything an agent needs, in one file
              </ListItem>
              <ListItem>
                <Anchor href="/auth.md">How agents connect</Anchor> and{" "}
                <Anchor href="/agents/policy.md">what they may do</Anchor>
              </ListItem>
            </List>
          </Stack>
        </SimpleGrid>

        <Text size="sm" c="dimmed">
          Service status: <Anchor href="/api/health">/api/health</Anchor>
        </Text>
      </Stack>
    </Container>
  );
}
