"use client";

import { Anchor, Group, Text } from "@mantine/core";
import Link from "next/link";
import { TOOLS } from "./tool-specs";

export function ToolsNav({ current }: { current?: string }) {
  return (
    <Group gap="md" mb="lg" component="nav" aria-label="Calculators">
      <Anchor component={Link} href="/" fw={700} c="dark" underline="never">
        Direct Mail Programme
      </Anchor>
      <Text c="dimmed">·</Text>
      {TOOLS.map((t) => (
        <Anchor
          key={t.slug}
          component={Link}
          href={`/tools/${t.slug}`}
          size="sm"
          fw={t.slug === current ? 700 : 400}
          aria-current={t.slug === current ? "page" : undefined}
        >
          {t.title}
        </Anchor>
      ))}
    </Group>
  );
}
