"use client";

import { Alert, Button, Checkbox, Group, NativeSelect, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useState } from "react";

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
  const [granted, setGranted] = useState<string[]>(p.scopes.map((s) => s.name));
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
          wants to work in your workspace as an agent. It will send you back to{" "}
          <Text span ff="monospace">
            {p.redirectHost}
          </Text>
          .
        </Text>
        {p.firstTime && (
          <Alert
            color="yellow"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="A client you have not connected before"
          >
            You have not approved this client before. Approve only if you started this connection yourself.
          </Alert>
        )}
        {p.localhost && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} aria-hidden />} title="It runs on this computer">
            The answer goes to localhost: a program on your own machine. Any program there could have asked; approve
            only if you just started one.
          </Alert>
        )}
        {p.workspaces.length > 1 ? (
          <NativeSelect
            label="Workspace it will act in"
            name="workspaceId"
            data={p.workspaces.map((w) => ({ value: w.id, label: `${w.name} (${w.plan} plan)` }))}
          />
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
        <Checkbox.Group
          label="It will be able to:"
          description="Untick what it should not do. It can ask again later; you decide each time."
          value={granted}
          onChange={setGranted}
          error={granted.length === 0 ? "Choose at least one, or deny the agent." : undefined}
        >
          <Stack gap="xs" mt="xs">
            {p.scopes.map((s) => (
              <Checkbox
                key={s.name}
                value={s.name}
                name={`grant_scope:${s.name}`}
                label={s.description}
                description={s.name}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Text size="sm" c="dimmed">
          It will never see your password or an API key, and it cannot print, approve or spend on its own: each such
          request waits for you to accept a confirmation card. You can revoke it at any time in Settings, Connected
          agents. Signed in as {p.userEmail}.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" name="decision" value="deny" variant="default">
            Deny
          </Button>
          <Button type="submit" name="decision" value="approve" disabled={granted.length === 0}>
            Approve
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
