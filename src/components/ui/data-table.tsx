"use client";

import { Group, Paper, Table, Text } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { IconArrowsHorizontal } from "@tabler/icons-react";
import type { ReactNode } from "react";

/**
 * The owner UI's tables: header cells in `head`, rows as children, scrolling sideways below
 * `minWidth` (with a line saying so, on narrow screens). "card" tables stand on their own in a
 * bordered card; "compact" ones sit inside a section, striped and denser.
 */
export function DataTable({
  minWidth,
  head,
  children,
  variant = "card",
  highlightOnHover = variant === "card",
}: {
  minWidth: number;
  head: ReactNode;
  children: ReactNode;
  variant?: "card" | "compact";
  highlightOnHover?: boolean;
}) {
  const { ref, width } = useElementSize();
  const scrolls = width > 0 && width < minWidth;
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        verticalSpacing={variant === "card" ? "sm" : "xs"}
        striped={variant === "compact"}
        highlightOnHover={highlightOnHover}
      >
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return (
    <div ref={ref}>
      {scrolls && (
        <Group gap={4} mb={4} c="dimmed">
          <IconArrowsHorizontal size={14} aria-hidden />
          <Text size="xs">Scroll the table sideways to see every column.</Text>
        </Group>
      )}
      {variant === "card" ? <Paper withBorder>{table}</Paper> : table}
    </div>
  );
}
