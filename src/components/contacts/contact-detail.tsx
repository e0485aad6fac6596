"use client";

import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconBan, IconPencil } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatCents, formatDateTime } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { humanize } from "@/components/campaigns/status-badges";
import { useTRPC } from "@/trpc/react";
import { ContactDeleteButton } from "./contact-delete";
import { ContactHistory } from "./contact-history";
import { ContactMailability } from "./contact-mailability";
import { ContactFormModal, formatCustom } from "./contact-form";
import { fullName, kindLabels, reasonLabels, sourceLabels } from "./labels";
import { CopyIcon } from "@/components/ui/copy-icon";
import { PieceTracking } from "@/components/campaigns/piece-tracking";
import { IfCan } from "@/components/access/role";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: "anywhere", whiteSpace: "pre-line" }}>
        {children || (
          <Text span c="dimmed">
            none
          </Text>
        )}
      </Text>
    </div>
  );
}

const REASONS = ["opt-out", "customer", "competitor", "do-not-mail", "bounced"] as const;

/** A contact's page: every field, its account and audiences, its mail and outcomes, suppressions; edit and suppress. */
export function ContactDetail({ workspaceId, contactId }: { workspaceId: string; contactId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.contact.get.queryOptions({ workspaceId, contactId }));
  const [editing, setEditing] = useState(false);
  const [suppressing, setSuppressing] = useState(false);
  const [reason, setReason] = useState<(typeof REASONS)[number]>("opt-out");
  const suppress = useMutation(
    trpc.suppression.add.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.suppression.pathKey() });
        notifications.show({ color: "teal", message: "The contact is suppressed: it will not be mailed." });
        setSuppressing(false);
      },
    }),
  );
  if (query.isPending) return <Skeleton h={400} />;
  if (query.isError) return <PageError message={query.error.message} onRetry={() => query.refetch()} />;
  const c = query.data;
  const custom = Object.entries(c.customFields);
  // A person without a company has an account of their own, named after them: no need to say it twice.
  const ownAccount = Boolean(c.account && !c.account.domain && c.account.name === fullName(c));

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Anchor component={Link} href={`/w/${workspaceId}/contacts`} size="sm">
            Contacts
          </Anchor>
          <Group gap="sm" mt={4}>
            <Title order={1} size="h2">
              {fullName(c)}
            </Title>
            {c.suppressions.length > 0 && (
              <Badge color="red" variant="light">
                suppressed
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {[c.title, ownAccount ? null : c.account?.name].filter(Boolean).join(" at ")}
            {c.title || (c.account && !ownAccount) ? " · " : ""}
            {sourceLabels[c.source]}
            {c.sourceDetail ? ` (${c.sourceDetail})` : ""} · added {formatDateTime(c.createdAt)}
          </Text>
        </div>
        <IfCan action="prepare">
          <Group gap="xs">
            <Button leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconBan size={16} />}
              onClick={() => setSuppressing(true)}
            >
              Suppress…
            </Button>
            <ContactDeleteButton workspaceId={workspaceId} contactId={c.id} name={fullName(c) || "this contact"} />
          </Group>
        </IfCan>
      </Group>

      {c.suppressions.length > 0 && (
        <Alert color="red" title="This contact will not be mailed">
          {c.suppressions.map((s) => (
            <Text size="sm" key={s.id}>
              {kindLabels[s.kind]} {s.label} · {reasonLabels[s.reason]}
            </Text>
          ))}
          <Anchor component={Link} href={`/w/${workspaceId}/suppressions`} size="sm">
            Manage suppressions
          </Anchor>
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Details
          </Title>
          <Stack gap="sm">
            <Field label="Email">{c.email}</Field>
            <Field label="Phone">{c.phone}</Field>
            <Field label="Job title">{c.title}</Field>
            <Field label="CRM id">{c.crmId}</Field>
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                Contact id (for the API)
              </Text>
              <Group gap={4} wrap="nowrap">
                <Text size="sm" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                  {c.id}
                </Text>
                <CopyIcon value={c.id} label="Copy the contact id" />
              </Group>
            </div>
            {custom.length > 0 && <Field label="Custom fields">{formatCustom(c.customFields)}</Field>}
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Postal address
          </Title>
          <Stack gap="sm">
            <Field label="Address">{c.addressLines.join("\n")}</Field>
            <Field label="Status">
              {humanize(c.addressStatus)}
              {c.undeliverableReason ? ` — ${c.undeliverableReason}` : ""}
            </Field>
            <ContactMailability workspaceId={workspaceId} contactId={c.id} original={c} />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Account and audiences
          </Title>
          <Stack gap="sm">
            <Field label="Account">
              {c.account ? (
                <Anchor component={Link} href={`/w/${workspaceId}/accounts/${c.account.id}`}>
                  {c.account.name}
                  {c.account.domain ? ` (${c.account.domain})` : ""}
                </Anchor>
              ) : null}
            </Field>
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                Audiences
              </Text>
              {c.audiences.length ? (
                <Group gap={6} mt={4}>
                  {c.audiences.map((a) => (
                    <Anchor key={a.id} component={Link} href={`/w/${workspaceId}/audiences/${a.id}`} size="sm">
                      {a.name}
                    </Anchor>
                  ))}
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  In no audience yet.
                </Text>
              )}
            </div>
          </Stack>
        </Paper>
      </SimpleGrid>

      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          Field history
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Changes after the contact was made. A value a person, an agent or an accepted audit fix wrote stays through
          imports and CRM syncs until the file's or the CRM's own value changes.
        </Text>
        <ContactHistory workspaceId={workspaceId} contactId={c.id} />
      </Paper>

      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Mail pieces
        </Title>
        {c.pieces.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing has been prepared or mailed to this contact yet.
          </Text>
        ) : (
          <DataTable
            variant="compact"
            minWidth={640}
            head={
              <>
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Mailed</Table.Th>
                <Table.Th>Tracking</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
                <Table.Th>Conversions</Table.Th>
              </>
            }
          >
            {c.pieces.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component={Link} href={`/w/${workspaceId}/campaigns/${p.campaign.id}`} size="sm">
                    {p.campaign.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{humanize(p.status)}</Table.Td>
                <Table.Td>{formatDateTime(p.mailedAt, "not mailed")}</Table.Td>
                <Table.Td>
                  <PieceTracking piece={p} />
                </Table.Td>
                <Table.Td ta="right">{formatCents(p.costCents)}</Table.Td>
                <Table.Td>
                  {p.conversions.map((x) => humanize(x.kind)).join(", ") || (
                    <Text span c="dimmed">
                      none
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Paper>

      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          Outcomes of the account
        </Title>
        {c.accountOutcomes.length === 0 ? (
          <Text size="sm" c="dimmed">
            No outcomes reported for {c.account?.name ?? "this contact's account"} yet (from the CRM or an outcomes
            import).
          </Text>
        ) : (
          <DataTable
            variant="compact"
            minWidth={480}
            head={
              <>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Source</Table.Th>
              </>
            }
          >
            {c.accountOutcomes.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{humanize(o.kind)}</Table.Td>
                <Table.Td>{formatDateTime(o.at)}</Table.Td>
                <Table.Td ta="right">{o.amountCents === null ? "" : formatCents(o.amountCents)}</Table.Td>
                <Table.Td>{o.source.toUpperCase()}</Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Paper>

      {editing && (
        <ContactFormModal
          workspaceId={workspaceId}
          opened
          onClose={() => setEditing(false)}
          contactId={c.id}
          initial={{
            firstName: c.firstName,
            lastName: c.lastName,
            title: c.title ?? "",
            email: c.email ?? "",
            phone: c.phone ?? "",
            addressLine1: c.addressLine1 ?? "",
            addressLine2: c.addressLine2 ?? "",
            city: c.city ?? "",
            region: c.region ?? "",
            postalCode: c.postalCode ?? "",
            country: c.country ?? "",
            crmId: c.crmId ?? "",
            customFields: formatCustom(c.customFields),
          }}
        />
      )}
      <Modal opened={suppressing} onClose={() => setSuppressing(false)} title={`Suppress ${fullName(c)}`}>
        <Stack>
          <Text size="sm">
            This contact will never be mailed by any campaign. You can take it off the suppression list later.
          </Text>
          <Select
            label="Reason"
            data={REASONS.map((r) => ({ value: r, label: reasonLabels[r] }))}
            value={reason}
            onChange={(v) => v && setReason(v as (typeof REASONS)[number])}
            allowDeselect={false}
          />
          {suppress.error && <Alert color="red">{suppress.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setSuppressing(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={suppress.isPending}
              onClick={() => suppress.mutate({ workspaceId, entries: [{ contactId: c.id, reason }] })}
            >
              Suppress
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
