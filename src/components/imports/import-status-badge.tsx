"use client";

import { Badge } from "@mantine/core";
import type { TImportView } from "@/server/programme/imports/schema";

const colors: Record<TImportView["status"], string> = {
  awaiting_mapping: "gray",
  queued: "gray",
  running: "blue",
  succeeded: "teal",
  failed: "red",
  cancelled: "orange",
};
const labels: Record<TImportView["status"], string> = {
  awaiting_mapping: "not started",
  queued: "queued",
  running: "running",
  succeeded: "done",
  failed: "failed",
  cancelled: "cancelled",
};

export function ImportStatusBadge({ status }: { status: TImportView["status"] }) {
  return (
    <Badge color={colors[status]} variant="light">
      {labels[status]}
    </Badge>
  );
}
