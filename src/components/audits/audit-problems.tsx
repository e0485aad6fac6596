"use client";

import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Progress,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import {
  isInformational,
  MAILABILITY_REASONS,
  REASON_LABELS,
  type TMailabilityReason,
} from "@/server/programme/mailability/reasons";
import { useTRPC } from "@/trpc/react";
import { useCan } from "@/components/access/role";

const statusColor = { mailable: "teal", fixable: "yellow", unmailable: "red" } as const;
const FIELD_LABELS: Record<string, string> = {
  addressLine1: "Street",
  addressLine2: "Line 2",
  city: "City",
  region: "Region",
  postalCode: "Postal code",
  country: "Country",
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
const describe = (fix: Record<string, string | undefined>) =>
  Object.entries(fix)
    .filter(([, v]) => v != null)
    .map(([f, v]) => `${FIELD_LABELS[f] ?? f} → ${v}`)
    .join(", ");

/**
 * An audit's contacts with a reason (informational ones included), filterable by reason, with the
 * address as it is beside its normalised form, and the suggested fixes to accept one by one, for
 * the contacts selected, or for every contact with the reason chosen (on the server, in rounds).
 */
export function AuditProblems({
  workspaceId,
  auditId,
  fixable,
  format,
}: {
  workspaceId: string;
  auditId: string;
  fixable: number;
  format: string | null;
}) {
  const trpc = useTRPC();
  const prepare = useCan("prepare");
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<TMailabilityReason | null>(null);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [fixed, setFixed] = useState<Map<string, string>>(new Map());
  const [bulk, setBulk] = useState<{ done: number; skipped: number; running: boolean } | null>(null);
  const problems = useQuery(
    trpc.mailability.problems.queryOptions(
      { workspaceId, auditId, reason, cursor: cursors[cursors.length - 1], take: 25 },
      { placeholderData: (prev) => prev },
    ),
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.mailability.contact.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.mailability.problems.pathKey() });
  };
  const fix = useMutation(
    trpc.mailability.applyFix.mutationOptions({
      onSuccess: (r) => {
        setFixed((m) =>
          new Map(m).set(
            r.contactId,
            describe(Object.fromEntries(Object.entries(r.changed).map(([f, c]) => [f, c.to]))),
          ),
        );
        refresh();
      },
      onError: (err) => notifications.show({ color: "red", title: "Not fixed", message: err.message }),
    }),
  );
  const fixMany = useMutation(trpc.mailability.applyFixes.mutationOptions());

  const rows = problems.data?.items ?? [];
  const open = rows.filter((i) => i.suggestion && !fixed.has(i.contactId));
  const allOnPage = open.length > 0 && open.every((i) => selected.has(i.contactId));

  /** Accepts fixes on the server: the selection at once, or every fixable contact with the reason in rounds of 500. */
  const acceptBulk = async (by: { contactIds?: string[]; reason?: TMailabilityReason | null }) => {
    setBulk({ done: 0, skipped: 0, running: true });
    let done = 0;
    let skipped = 0;
    try {
      for (let round = 0; round < 400; round++) {
        const r = await fixMany.mutateAsync({
          workspaceId,
          auditId,
          contactIds: by.contactIds ?? null,
          reason: by.contactIds ? null : (by.reason ?? null),
        });
        done += r.fixed;
        skipped += r.skipped;
        setFixed((m) => {
          const next = new Map(m);
          for (const c of r.changes)
            next.set(c.contactId, describe(Object.fromEntries(Object.entries(c.changed).map(([f, v]) => [f, v.to]))));
          return next;
        });
        setBulk({ done, skipped, running: true });
        if (by.contactIds || r.remaining === 0 || r.fixed === 0) break;
      }
      setSelected(new Set());
      notifications.show({
        color: "teal",
        title: "Fixes accepted",
        message: `${formatNumber(done)} contacts fixed${skipped ? `, ${formatNumber(skipped)} skipped (changed since the audit, or no longer fixable)` : ""}. Run the audit again to see the new figures.`,
      });
    } catch (err) {
      notifications.show({
        color: "red",
        title: "Not every fix was accepted",
        message: err instanceof Error ? err.message : String(err),
      });
    } finally {
      setBulk({ done, skipped, running: false });
      refresh();
    }
  };

  return (
    <Paper withBorder p="md" id="problems">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4">
            Contacts with a reason
          </Title>
          <Group align="flex-end">
            <Select
              label="Reason"
              placeholder="Every reason"
              clearable
              data={MAILABILITY_REASONS.map((r) => ({ value: r, label: REASON_LABELS[r] }))}
              value={reason}
              onChange={(v) => {
                setReason(v as TMailabilityReason | null);
                setCursors([null]);
                setSelected(new Set());
              }}
              w={{ base: "100%", sm: 320 }}
            />
            <Button
              variant="default"
              component="a"
              href={`/api/audits/${auditId}/problems.csv?workspaceId=${workspaceId}${reason ? `&reason=${reason}` : ""}`}
              download
            >
              Export CSV
            </Button>
          </Group>
        </Group>
        <Group gap="sm" display={prepare.allowed ? undefined : "none"}>
          <Button
            variant="light"
            disabled={selected.size === 0 || bulk?.running}
            onClick={() => acceptBulk({ contactIds: [...selected] })}
          >
            Accept {selected.size} selected {selected.size === 1 ? "fix" : "fixes"}
          </Button>
          {reason && (
            <Button
              variant="light"
              disabled={fixable === 0 || bulk?.running}
              loading={bulk?.running}
              onClick={() => acceptBulk({ reason })}
            >
              Accept every fix for this reason
            </Button>
          )}
          {!reason && (
            <Text size="sm" c="dimmed">
              {formatNumber(fixable)} fixable in this audit; choose a reason to accept all of its fixes at once.
            </Text>
          )}
        </Group>
        {bulk && (
          <div aria-live="polite">
            {bulk.running && <Progress value={100} animated striped aria-label="Accepting fixes" />}
            <Text size="sm" c="dimmed">
              {bulk.running ? "Accepting fixes… " : ""}
              {formatNumber(bulk.done)} fixed{bulk.skipped ? `, ${formatNumber(bulk.skipped)} skipped` : ""}.
            </Text>
          </div>
        )}
        <ListStates
          query={problems}
          items={problems.data?.items}
          loading={<Skeleton h={200} />}
          empty={
            <EmptyState title={reason ? "No contact has this reason" : "Nothing to fix"}>
              {reason
                ? "Choose another reason, or every reason."
                : "Every contact of the audience can be mailed, with no reason to note."}
            </EmptyState>
          }
        >
          {(items) => (
            <>
              <DataTable
                minWidth={1020}
                head={
                  <>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label="Select every fixable contact on this page"
                        checked={allOnPage}
                        disabled={open.length === 0}
                        onChange={(e) => {
                          const on = e.currentTarget.checked;
                          setSelected((s) => {
                            const next = new Set(s);
                            for (const i of open) on ? next.add(i.contactId) : next.delete(i.contactId);
                            return next;
                          });
                        }}
                      />
                    </Table.Th>
                    <Table.Th>Contact</Table.Th>
                    <Table.Th>Address as it is</Table.Th>
                    <Table.Th>Normalised</Table.Th>
                    <Table.Th w={120}>Status</Table.Th>
                    <Table.Th>Reasons</Table.Th>
                    <Table.Th>Suggested fix</Table.Th>
                  </>
                }
              >
                {items.map((r) => {
                  const name =
                    [r.contact.firstName, r.contact.lastName].filter(Boolean).join(" ") ||
                    r.contact.email ||
                    r.contactId;
                  const original = oneLine(r.contact);
                  const normalised = oneLine(r.normalised);
                  return (
                    <Table.Tr key={r.contactId}>
                      <Table.Td>
                        {r.suggestion && !fixed.has(r.contactId) && (
                          <Checkbox
                            aria-label={`Select ${name}`}
                            checked={selected.has(r.contactId)}
                            onChange={(e) => {
                              const on = e.currentTarget.checked;
                              setSelected((s) => {
                                const next = new Set(s);
                                on ? next.add(r.contactId) : next.delete(r.contactId);
                                return next;
                              });
                            }}
                          />
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} href={`/w/${workspaceId}/contacts/${r.contactId}`} fw={600}>
                          {name}
                        </Anchor>
                        {r.contact.company && (
                          <Text size="xs" c="dimmed">
                            {r.contact.company}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{original || "No address"}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={normalised === original ? "dimmed" : undefined}>
                          {normalised === original ? "The same" : normalised || "No address"}
                        </Text>
                        {r.normalisationNotes.map((note) => (
                          <Text size="xs" c="gray.7" key={note} mt={2}>
                            {note}
                          </Text>
                        ))}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: "nowrap" }}>
                        <Badge color={statusColor[r.status]} variant="light" style={{ overflow: "visible" }}>
                          {r.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {r.reasons.map((x, i) => (
                            <Text span key={x} inherit c={isInformational(x, format) ? "gray.7" : undefined}>
                              {i > 0 ? "; " : ""}
                              {REASON_LABELS[x]}
                              {isInformational(x, format) && !REASON_LABELS[x].includes("(informational)")
                                ? " (informational)"
                                : ""}
                            </Text>
                          ))}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {fixed.has(r.contactId) ? (
                          <Text size="sm" c="teal.9" fw={600}>
                            Fixed: {fixed.get(r.contactId)}
                          </Text>
                        ) : r.suggestion && prepare.allowed ? (
                          <Button
                            size="xs"
                            variant="light"
                            loading={fix.isPending && fix.variables?.contactId === r.contactId}
                            onClick={() => fix.mutate({ workspaceId, contactId: r.contactId })}
                            aria-label={`Accept ${describe(r.suggestion)} for ${name}`}
                          >
                            {describe(r.suggestion)}
                          </Button>
                        ) : (
                          <Text size="sm" c="dimmed">
                            {r.status === "mailable" ? "Nothing needed" : "Needs a person"}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </DataTable>
              <Group justify="flex-end" mt="sm">
                <Button
                  variant="default"
                  size="xs"
                  disabled={cursors.length === 1}
                  onClick={() => setCursors((c) => c.slice(0, -1))}
                >
                  Previous
                </Button>
                <Button
                  variant="default"
                  size="xs"
                  disabled={!problems.data?.nextCursor}
                  onClick={() => problems.data?.nextCursor && setCursors((c) => [...c, problems.data!.nextCursor])}
                >
                  Next
                </Button>
              </Group>
            </>
          )}
        </ListStates>
      </Stack>
    </Paper>
  );
}
