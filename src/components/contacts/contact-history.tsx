"use client";

import { Alert, Button, Skeleton, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconArrowBackUp } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

const FIELD_LABELS: Record<string, string> = {
  firstName: "First name",
  lastName: "Last name",
  title: "Job title",
  email: "Email",
  phone: "Phone",
  addressLine1: "Address line 1",
  addressLine2: "Address line 2",
  city: "City",
  region: "State / region",
  postalCode: "Postal code",
  country: "Country",
};
export const fieldLabel = (field: string) =>
  field.startsWith("custom:") ? `${field.slice(7)} (custom)` : (FIELD_LABELS[field] ?? field);

const BY: Record<string, string> = {
  import: "CSV import",
  crm: "CRM sync",
  owner: "Person",
  agent: "Agent",
  fix: "Accepted audit fix",
};

const value = (v: string | null) =>
  v === null || v === "" ? (
    <Text span c="dimmed" size="sm">
      empty
    </Text>
  ) : (
    <Text span size="sm" style={{ overflowWrap: "anywhere" }}>
      {v}
    </Text>
  );

/**
 * A contact's field history (newest first): who changed which field, when, old → new, and a
 * button that puts the old value back (as the person's own edit, which imports and syncs then
 * leave alone until their own value changes).
 */
export function ContactHistory({ workspaceId, contactId }: { workspaceId: string; contactId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.contact.history.queryOptions({ workspaceId, contactId }));
  const revert = useMutation(
    trpc.contact.revertField.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.mailability.contact.pathKey() });
        notifications.show({
          color: "teal",
          message: "The earlier value is back. Imports and syncs keep it until their own value changes.",
        });
      },
    }),
  );
  if (query.isPending) return <Skeleton h={80} />;
  if (query.isError)
    return (
      <Alert color="red" title="The history could not be loaded">
        {query.error.message}
      </Alert>
    );
  const { changes } = query.data;
  if (changes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No field has changed since this contact was made.
      </Text>
    );
  }
  // Only a field's newest change can be undone (an older one would overwrite what came after it).
  const newest = new Set<string>();
  const seen = new Set<string>();
  for (const ch of changes) {
    if (!seen.has(ch.field)) newest.add(ch.id);
    seen.add(ch.field);
  }
  return (
    <>
      {revert.error && (
        <Alert color="red" mb="sm">
          {revert.error.message}
        </Alert>
      )}
      <DataTable
        variant="compact"
        minWidth={720}
        head={
          <>
            <Table.Th>Field</Table.Th>
            <Table.Th>Was</Table.Th>
            <Table.Th>Became</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th aria-label="Way back" />
          </>
        }
      >
        {changes.map((ch) => (
          <Table.Tr key={ch.id}>
            <Table.Td>{fieldLabel(ch.field)}</Table.Td>
            <Table.Td>{value(ch.oldValue)}</Table.Td>
            <Table.Td>{value(ch.newValue)}</Table.Td>
            <Table.Td>
              <Text size="sm">{BY[ch.byKind] ?? ch.byKind}</Text>
              {ch.byLabel && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {ch.byLabel}
                  {ch.revertOf ? " (undid a change)" : ""}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{formatDateTime(ch.at)}</Table.Td>
            <Table.Td>
              {newest.has(ch.id) && (
                <IfCan action="prepare">
                  <Button
                    size="compact-xs"
                    variant="default"
                    leftSection={<IconArrowBackUp size={14} aria-hidden />}
                    loading={revert.isPending && revert.variables?.changeId === ch.id}
                    onClick={() => revert.mutate({ workspaceId, contactId, changeId: ch.id })}
                    aria-label={`Put ${fieldLabel(ch.field)} back to ${ch.oldValue ?? "empty"}`}
                  >
                    Put back
                  </Button>
                </IfCan>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </>
  );
}
