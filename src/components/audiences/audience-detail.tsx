"use client";

import { ChartFigure } from "@/components/ui/chart-figure";
import { countChartProps } from "@/components/ui/chart-props";
import { StatCard } from "@/components/ui/stat-card";
import { BarChart } from "@mantine/charts";
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconPencil, IconTrash, IconUserMinus } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ContactsTable } from "@/components/contacts/contacts-table";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { formatCount, formatDateTime, formatNumber } from "@/components/ui/format";
import { NameModal, schemaRule } from "@/components/ui/name-modal";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { ZAudienceName } from "@/server/records/audiences/schema";
import { useTRPC } from "@/trpc/react";
import { IfCan, useCan } from "@/components/access/role";

/** An audience: size and accounts, contacts per country, the campaigns that mail it, its members (remove), rename, delete. */
export function AudienceDetail({ workspaceId, audienceId }: { workspaceId: string; audienceId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.audience.get.queryOptions({ workspaceId, audienceId }));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const prepare = useCan("prepare");
  const [renaming, setRenaming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.audience.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
  };
  const remove = useMutation(
    trpc.audience.removeContacts.mutationOptions({
      onSuccess: (r) => {
        refresh();
        setSelected(new Set());
        setRemoving(false);
        notifications.show({
          color: "teal",
          message: `${formatCount(r.removed, "contact")} removed from the audience.`,
        });
      },
    }),
  );
  const rename = useMutation(
    trpc.audience.rename.mutationOptions({ onSuccess: () => (refresh(), setRenaming(false)) }),
  );
  const del = useMutation(
    trpc.audience.delete.mutationOptions({ onSuccess: () => (refresh(), router.push(`/w/${workspaceId}/audiences`)) }),
  );
  if (query.isPending) return <Skeleton h={400} />;
  if (query.isError) return <PageError message={query.error.message} onRetry={() => query.refetch()} />;
  const a = query.data;
  const countries = a.byCountry.slice(0, 10).map((c) => ({ country: c.country ?? "none", Contacts: c.contacts }));

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Anchor component={Link} href={`/w/${workspaceId}/audiences`} size="sm">
            Audiences
          </Anchor>
          <Title order={1} size="h2" mt={4}>
            {a.name}
          </Title>
          <Text size="sm" c="dimmed">
            Made {formatDateTime(a.createdAt)} ·{" "}
            {a.source === "csv" ? "from a CSV import" : a.source === "crm" ? "from a CRM" : "by hand"}
          </Text>
        </div>
        <IfCan action="prepare">
          <Group gap="xs">
            <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDeleting(true)}
            >
              Delete
            </Button>
          </Group>
        </IfCan>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 3 }}>
        <StatCard label="Contacts" value={formatNumber(a.size)} />
        <StatCard label="Accounts" value={formatNumber(a.accounts)} hint="holdouts are drawn per account" />
        <StatCard
          label="Campaigns"
          value={formatNumber(a.campaigns.length)}
          hint={a.campaigns.map((c) => c.name).join(", ") || "none mail it yet"}
        />
      </SimpleGrid>
      {countries.length > 0 && (
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Contacts by country
          </Title>
          <ChartFigure label={countries.map((c) => `${c.country}: ${c.Contacts}`).join(", ")}>
            <BarChart
              {...countChartProps}
              h={200}
              data={countries}
              dataKey="country"
              series={[{ name: "Contacts", color: "indigo.6" }]}
              tickLine="y"
              withTooltip
            />
          </ChartFigure>
        </Paper>
      )}
      {a.campaigns.length > 0 && (
        <Text size="sm">
          Mailed by{" "}
          {a.campaigns.map((c, i) => (
            <span key={c.id}>
              {i > 0 && ", "}
              <Anchor component={Link} href={`/w/${workspaceId}/campaigns/${c.id}`}>
                {c.name}
              </Anchor>{" "}
              ({c.status})
            </span>
          ))}
          .
        </Text>
      )}
      <Group justify="space-between">
        <Title order={2} size="h4">
          Members
        </Title>
        <Group gap="xs">
          {selected.size > 0 && prepare.allowed && (
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconUserMinus size={14} />}
              onClick={() => setRemoving(true)}
            >
              Remove {formatNumber(selected.size)} from the audience
            </Button>
          )}
          <Button size="xs" variant="default" component={Link} href={`/w/${workspaceId}/contacts?audienceId=${a.id}`}>
            Search and filter them
          </Button>
        </Group>
      </Group>
      <ContactsTable
        workspaceId={workspaceId}
        filter={{ audienceId: a.id }}
        selectable
        selected={selected}
        onSelectedChange={setSelected}
        empty={
          <EmptyState title="No contacts in this audience">
            Add contacts from the{" "}
            <Anchor component={Link} href={`/w/${workspaceId}/contacts`}>
              Contacts
            </Anchor>{" "}
            page: select them, or save a search as this audience; or import a CSV file into it.
          </EmptyState>
        }
      />
      <ConfirmModal
        opened={removing}
        title="Remove contacts from the audience"
        confirmLabel="Remove"
        color="red"
        loading={remove.isPending}
        onClose={() => setRemoving(false)}
        onConfirm={() => remove.mutate({ workspaceId, audienceId: a.id, contactIds: [...selected] })}
      >
        <Text size="sm">
          {selected.size === 1
            ? `1 contact leaves “${a.name}”. It stays in the workspace and in its other audiences.`
            : `${formatCount(selected.size, "contact")} leave “${a.name}”. They stay in the workspace and in their other audiences.`}
        </Text>
        {remove.error && <Alert color="red">{remove.error.message}</Alert>}
      </ConfirmModal>
      <ConfirmModal
        opened={deleting}
        title="Delete the audience"
        confirmLabel="Delete audience"
        color="red"
        loading={del.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => del.mutate({ workspaceId, audienceId: a.id })}
      >
        <Text size="sm">
          “{a.name}” is deleted; {a.size === 1 ? "its contact stays" : `its ${formatCount(a.size, "contact")} stay`} in
          the workspace. An audience a campaign mails cannot be deleted.
        </Text>
        {del.error && <Alert color="red">{del.error.message}</Alert>}
      </ConfirmModal>
      <NameModal
        opened={renaming}
        onClose={() => setRenaming(false)}
        title="Rename the audience"
        initialValue={a.name}
        submitLabel="Save"
        validate={schemaRule(ZAudienceName)}
        onSubmit={(name) => rename.mutateAsync({ workspaceId, audienceId: a.id, name })}
      />
    </Stack>
  );
}
