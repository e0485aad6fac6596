"use client";

import { Anchor, Badge, Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { formatDateTime } from "@/components/ui/format";
import { REASON_LABELS } from "@/server/programme/mailability/reasons";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

const statusColor = { mailable: "teal", fixable: "yellow", unmailable: "red" } as const;
const FIELD_LABELS: Record<string, string> = {
  addressLine1: "street",
  addressLine2: "line 2",
  city: "city",
  region: "region",
  postalCode: "postal code",
  country: "country",
};
type Address = {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
};
const oneLine = (a: Address) =>
  [a.addressLine1, a.addressLine2, a.city, a.region, a.postalCode, a.country].filter(Boolean).join(", ");

/** A contact's mailability now (the audit's verdict), its normalised address, its verification, and its newest audit. */
export function ContactMailability({
  workspaceId,
  contactId,
  original,
}: {
  workspaceId: string;
  contactId: string;
  original: Address;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const m = useQuery(trpc.mailability.contact.queryOptions({ workspaceId, contactId }));
  const fix = useMutation(
    trpc.mailability.applyFix.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.mailability.contact.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        notifications.show({ color: "teal", title: "Fix accepted", message: "The contact's address was corrected." });
      },
      onError: (err) => notifications.show({ color: "red", title: "Not fixed", message: err.message }),
    }),
  );
  if (m.isPending) return <Skeleton h={60} />;
  if (m.isError)
    return (
      <Text size="sm" c="red.8">
        The mailability could not be read: {m.error.message}
      </Text>
    );
  const v = m.data;
  const normalised = oneLine(v.normalised);
  return (
    <Stack gap={6}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        Mailability now
      </Text>
      <Group gap="xs">
        <Badge color={statusColor[v.status]} variant="light">
          {v.status}
        </Badge>
        {v.reasons.length === 0 && <Text size="sm">No reason to note.</Text>}
      </Group>
      {v.reasons.map((r, i) => (
        <Text size="sm" key={r}>
          <Anchor href={`/docs/mailability#${r}`} size="sm">
            {REASON_LABELS[r]}
          </Anchor>
          {v.why[i] && v.why[i] !== REASON_LABELS[r] ? `: ${v.why[i]}` : ""}
        </Text>
      ))}
      {normalised !== oneLine(original) && (
        <Text size="sm">
          Normalised:{" "}
          <Text span fw={600}>
            {normalised}
          </Text>
        </Text>
      )}
      {v.suggestion && (
        <IfCan action="prepare">
          <Button
            size="xs"
            variant="light"
            w="fit-content"
            loading={fix.isPending}
            onClick={() => fix.mutate({ workspaceId, contactId })}
          >
            Accept the fix:{" "}
            {Object.entries(v.suggestion)
              .map(([f, x]) => `${FIELD_LABELS[f] ?? f} → ${x}`)
              .join(", ")}
          </Button>
        </IfCan>
      )}
      {v.verification && (
        <Text size="sm" c="dimmed">
          {v.verification.verdict === "not_verified"
            ? `Not verified (${v.verification.mode === "test" ? "test mode" : "sandbox"}): the ${v.verification.mode === "test" ? `${v.verification.verifier} test key` : "sandbox verifier"} looks nothing up.`
            : v.verification.mode === "live"
              ? `Verified (${v.verification.verifier}): ${v.verification.vendorVerdict.replaceAll("_", " ")}.`
              : `Test answer (${v.verification.mode === "test" ? "test mode" : "sandbox"}, not a verification): ${v.verification.vendorVerdict.replaceAll("_", " ")}.`}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {v.latestAudit ? (
          <>
            <Anchor component={Link} href={`/w/${workspaceId}/audits/${v.latestAudit.auditId}`} size="sm">
              Audit of {v.latestAudit.of}
            </Anchor>{" "}
            ({formatDateTime(v.latestAudit.auditedAt)}): {v.latestAudit.status}
            {v.latestAudit.why.length ? `, flagged for ${v.latestAudit.why.join("; ")}` : ""}.
          </>
        ) : (
          "Not in a finished audit yet."
        )}
      </Text>
    </Stack>
  );
}
