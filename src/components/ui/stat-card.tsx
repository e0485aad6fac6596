import { Paper, Text } from "@mantine/core";
import Link from "next/link";
import { formatNumber } from "./format";

/**
 * One figure with its label (and a hint below). With `href` the whole card is a link to what it
 * counts, named by its label and value for screen readers.
 */
export function StatCard({
  label,
  value,
  hint,
  href,
}: {
  label: string;
  value: string | number;
  hint?: string;
  href?: string;
}) {
  const shown = typeof value === "number" ? formatNumber(value) : value;
  const body = (
    <>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={26} fw={700}>
        {shown}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </>
  );
  if (!href) {
    return (
      <Paper withBorder p="md">
        {body}
      </Paper>
    );
  }
  return (
    <Paper
      withBorder
      p="md"
      component={Link}
      href={href}
      className="stat-link"
      aria-label={`${label}: ${shown}${hint ? `, ${hint}` : ""}`}
    >
      {body}
    </Paper>
  );
}
