"use client";

import { Button, Code, Group, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconDownload } from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";

const KIND_LABELS = { user: "People", api_key: "API keys", agent: "Agents", system: "The service" } as const;
type TActorKind = keyof typeof KIND_LABELS;

/** A date field's value (YYYY-MM-DD, the person's day in UTC) as the instant it starts. */
const dayStart = (d: string, plusDays = 0) =>
  d ? new Date(Date.parse(`${d}T00:00:00Z`) + plusDays * 86_400_000).toISOString() : undefined;

/** Settings → Activity: who asked for, accepted, declined or changed what, person or agent; filtered, paged, exported. */
export function ActivityPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [who, setWho] = useState<string | null>(null);
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [exporting, setExporting] = useState(false);
  const filters = useQuery(trpc.activity.filters.queryOptions({ workspaceId }));
  const filter = {
    ...(who?.startsWith("kind:") ? { actorKind: who.slice(5) as TActorKind } : who ? { actorId: who } : {}),
    ...(kind ? { kind } : {}),
    from: dayStart(from),
    // "To" is the whole of that day.
    to: dayStart(to, 1),
  };
  const page = useQuery(trpc.activity.list.queryOptions({ workspaceId, filter, cursor: cursors[cursors.length - 1] }));
  const reset = () => setCursors([undefined]);
  const whoOptions = [
    {
      group: "Kind",
      items: (Object.keys(KIND_LABELS) as TActorKind[]).map((k) => ({ value: `kind:${k}`, label: KIND_LABELS[k] })),
    },
    { group: "One of them", items: (filters.data?.actors ?? []).map((a) => ({ value: a.id, label: a.label })) },
  ];
  const download = async () => {
    setExporting(true);
    try {
      const r = await queryClient.fetchQuery(trpc.activity.exportCsv.queryOptions({ workspaceId, filter }));
      const url = URL.createObjectURL(new Blob([r.csv], { type: "text/csv" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = "activity.csv";
      a.click();
      URL.revokeObjectURL(url);
      if (r.truncated)
        notifications.show({
          color: "yellow",
          message: `The file holds the newest ${r.rows} entries; narrow the filter for older ones.`,
        });
    } catch (err) {
      notifications.show({ color: "red", title: "The export failed", message: (err as Error).message });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="md" maw={1200}>
      <Text size="sm" c="dimmed" maw={760}>
        Who asked for, accepted, declined or changed each consequential thing in this workspace: people, API keys,
        connected agents and the service itself, newest first.
      </Text>
      <Group align="flex-end" gap="sm">
        <Select
          label="Who"
          placeholder="Anyone"
          data={whoOptions}
          value={who}
          onChange={(v) => {
            setWho(v);
            reset();
          }}
          clearable
          searchable
          w={240}
        />
        <Select
          label="Kind"
          placeholder="Any kind"
          data={filters.data?.kinds ?? []}
          value={kind}
          onChange={(v) => {
            setKind(v);
            reset();
          }}
          clearable
          searchable
          w={200}
        />
        <TextInput
          type="date"
          label="From (UTC day)"
          value={from}
          onChange={(e) => {
            setFrom(e.currentTarget.value);
            reset();
          }}
        />
        <TextInput
          type="date"
          label="To (UTC day)"
          value={to}
          onChange={(e) => {
            setTo(e.currentTarget.value);
            reset();
          }}
        />
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      {page.isError ? (
        <Text c="red">{page.error.message}</Text>
      ) : page.data && page.data.entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing matches this filter.
        </Text>
      ) : (
        <DataTable
          minWidth={820}
          head={
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>On</Table.Th>
            </Table.Tr>
          }
        >
          {(page.data?.entries ?? []).map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{formatDateTime(e.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm">{e.actorLabel}</Text>
                <Text size="xs" c="dimmed">
                  {KIND_LABELS[e.actorKind]}
                </Text>
              </Table.Td>
              <Table.Td>
                <Code>{e.action}</Code>
              </Table.Td>
              <Table.Td>
                {e.targetType ? (
                  <Text size="sm">
                    {e.targetType} <Code>{e.targetId}</Code>
                  </Text>
                ) : (
                  "—"
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      <Group justify="space-between">
        <Button
          variant="default"
          size="xs"
          disabled={cursors.length === 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </Button>
        <Text size="xs" c="dimmed">
          Page {cursors.length}
        </Text>
        <Button
          variant="default"
          size="xs"
          disabled={!page.data?.nextCursor}
          onClick={() => setCursors((c) => [...c, page.data?.nextCursor ?? undefined])}
        >
          Older
        </Button>
      </Group>
    </Stack>
  );
}
