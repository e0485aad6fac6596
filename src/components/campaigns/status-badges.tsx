"use client";

import { Badge, Tooltip } from "@mantine/core";
import {
  entryStatusDescriptions,
  type SkipReason,
  skipReasonDescriptions,
} from "@/server/programme/entry/lifecycle-states";

const campaignColors = { draft: "gray", live: "teal", paused: "yellow", ended: "dark" } as const;
const eventColors: Record<string, string> = {
  accepted: "gray",
  processing: "blue",
  waiting: "yellow",
  enrolled: "indigo",
  held_out: "grape",
  completed: "teal",
  skipped: "orange",
  failed: "red",
};

export function CampaignStatusBadge({ status }: { status: keyof typeof campaignColors }) {
  return (
    <Badge color={campaignColors[status]} variant="light">
      {status}
    </Badge>
  );
}

export const humanize = (s: string) => s.replace(/_/g, " ");

/** An entry event's status, with what it means on hover (and the skip reason when there is one). */
export function EventStatusBadge({ status, skipReason }: { status: string; skipReason?: string | null }) {
  const tip = skipReason
    ? skipReasonDescriptions[skipReason as SkipReason]
    : entryStatusDescriptions[status as keyof typeof entryStatusDescriptions];
  return (
    <Tooltip label={tip} multiline w={280} withArrow>
      <Badge
        color={eventColors[status] ?? "gray"}
        variant="light"
        tabIndex={0}
        style={{ overflow: "visible" }}
        styles={{ label: { overflow: "visible" } }}
      >
        {humanize(status)}
      </Badge>
    </Tooltip>
  );
}
