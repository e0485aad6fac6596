"use client";

import { Paper, Table } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * The owner UI's tables: header cells in `head`, rows as children, scrolling sideways below
 * `minWidth`. "card" tables stand on their own in a bordered card; "compact" ones sit inside a
 * section, striped and denser.
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
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table verticalSpacing={variant === "card" ? "sm" : "xs"} striped={variant === "compact"} highlightOnHover={highlightOnHover}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return variant === "card" ? <Paper withBorder>{table}</Paper> : table;
}
