"use client";

import { Alert, Button, Group, List, NativeSelect, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconAlertTriangle, IconCheck } from "@tabler/icons-react";

export interface ConsentCardProps {
  clientName: string;
  clientId: string;
  redirectHost: string;
  localhost: boolean;
  firstTime: boolean;
  scopes: { name: string; description: string }[];
  workspaces: { id: string; name: string; plan: string }[];
  userEmail: string;
  /** The authorization request, echoed in hidden fields and bound to the csrf token. */
  hidden: Record<string, string>;
}

/** The agent-consent form: who asks, where the answer goes, which workspace, which powers. */
export function ConsentCard(p: ConsentCardProps) {
  return (
    <form method="post" action="/oauth/authorize/decision">
      {Object.entries(p.hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Stack gap="md">
        <Text>
          <Text span fw={700}>
            {p.clientName}
          </Text>{" "}
          wants to work in your workspace as an agent. It will send you back to <Text span ff="monospace">{p.redirectHost}</Text>.
        </Text>
        {p.firstTime && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} title="A client you have not connected before">
            No workspace has approved this client yet. Approve only if you started this connection yourself.
          </Alert>
        )}
        {p.localhost && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} aria-hidden />} title="It runs on this computer">
            The answer goes to localhost: a program on your own machine. Any program there could have asked; approve only if you just started one.
          </Alert>
        )}
        {p.workspaces.length > 1 ? (
          <NativeSelect label="Workspace it will act in" name="workspaceId" data={p.workspaces.map((w) => ({ value: w.id, label: `${w.name} (${w.plan} plan)` }))} />
        ) : (
          <>
            <input type="hidden" name="workspaceId" value={p.workspaces[0].id} />
            <Text size="sm">
              Workspace it will act in:{" "}
              <Text span fw={600}>
                {p.workspaces[0].name}
              </Text>{" "}
              ({p.workspaces[0].plan} plan)
            </Text>
          </>
        )}
        <div>
          <Text size="sm" fw={600} mb={6}>
            It will be able to:
          </Text>
          <List spacing="xs" size="sm" icon={<ThemeIcon size={20} radius="xl" color="teal"><IconCheck size={14} aria-hidden /></ThemeIcon>}>
            {p.scopes.map((s) => (
              <List.Item key={s.name}>{s.description}</List.Item>
            ))}
          </List>
        </div>
        <Text size="sm" c="dimmed">
          It will never see your password or an API key, and it cannot print, approve or spend on its own: each such request waits for you to accept a
          confirmation card. You can revoke it at any time in Settings, Connected agents. Signed in as {p.userEmail}.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" name="decision" value="deny" variant="default">
            Deny
          </Button>
          <Button type="submit" name="decision" value="approve">
            Approve
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
