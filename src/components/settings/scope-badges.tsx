"use client";

import { Badge, Group } from "@mantine/core";

/** The scopes a key or an agent holds, as written in the API (api-keys and connected-agents panels). */
export function ScopeBadges({ scopes }: { scopes: string[] }) {
  return (
    <Group gap={4}>
      {scopes.map((s) => (
        <Badge key={s} variant="light" size="sm" tt="none">
          {s}
        </Badge>
      ))}
    </Group>
  );
}
