"use client";

import { Badge, Group, Text, Tooltip } from "@mantine/core";
import { formatDateTime } from "@/components/ui/format";
import { trackingLabels } from "@/server/programme/fulfilment/tracking-names";

const labels: Record<string, string> = trackingLabels;

const colors: Record<string, string> = { delivered: "teal", returned_to_sender: "red", re_routed: "orange" };
const issues: Record<string, string> = {
  address_refused: "Address refused by the printer",
  file_refused: "Print file refused by the printer",
  unconfirmed: "Not confirmed by the printer: needs a person",
  cancelled_at_vendor: "Cancelled at the printer",
};

/** Where a piece is in the post (the vendor's tracking events), or why the vendor did not take it. */
export function PieceTracking({
  piece,
}: {
  piece: {
    trackingStatus: string | null;
    trackingEvents: unknown;
    vendorIssue: string | null;
    vendorIssueDetail: string | null;
    vendorMode: string | null;
  };
}) {
  const events = Array.isArray(piece.trackingEvents) ? (piece.trackingEvents as { status: string; at: string }[]) : [];
  const test =
    piece.vendorMode === "test" ? (
      <Badge size="xs" color="yellow" variant="light">
        test: not really mailed
      </Badge>
    ) : null;
  if (piece.vendorIssue) {
    return (
      <Tooltip label={piece.vendorIssueDetail ?? issues[piece.vendorIssue]} multiline w={320}>
        <Badge color="red" variant="light" tabIndex={0}>
          {issues[piece.vendorIssue] ?? piece.vendorIssue}
        </Badge>
      </Tooltip>
    );
  }
  if (!piece.trackingStatus) {
    return (
      <Group gap={4}>
        <Text size="sm" c="dimmed">
          no scans yet
        </Text>
        {test}
      </Group>
    );
  }
  return (
    <Group gap={4}>
      <Tooltip
        label={events.map((e) => `${labels[e.status] ?? e.status}: ${formatDateTime(e.at, "")}`).join(" · ")}
        multiline
        w={320}
      >
        <Badge color={colors[piece.trackingStatus] ?? "blue"} variant="light" tabIndex={0}>
          {labels[piece.trackingStatus] ?? piece.trackingStatus}
        </Badge>
      </Tooltip>
      {test}
    </Group>
  );
}
