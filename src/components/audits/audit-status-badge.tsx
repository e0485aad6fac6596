import { Badge } from "@mantine/core";

const statusColor = { queued: "gray", running: "blue", succeeded: "teal", failed: "red", cancelled: "orange" } as const;
const statusLabel = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
} as const;
/** An audit's status as a badge: queued, running, done, failed or cancelled. */
export function AuditStatusBadge({ status }: { status: keyof typeof statusColor }) {
  return (
    <Badge color={statusColor[status]} variant="light">
      {statusLabel[status]}
    </Badge>
  );
}
