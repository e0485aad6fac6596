"use client";

import { Alert, Badge, Button, Group, Paper, Select, Stack, Switch, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconRefresh, IconUnlink } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TConnectionView } from "@/server/programme/crm/schema";
import { JobProgress } from "@/components/jobs/job-progress";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { formatDateTime } from "@/components/ui/format";
import { CountsGrid } from "./counts-grid";
import { useTRPC } from "@/trpc/react";
import { CRM_NAMES } from "./connect-modal";
import { DealFilter } from "./deal-filter";
import { SyncHistory } from "./sync-history";
import { IfCan, useCan } from "@/components/access/role";

const SCHEDULES = [
  { value: "15", label: "Every 15 minutes" },
  { value: "30", label: "Every 30 minutes" },
  { value: "60", label: "Every hour" },
  { value: "360", label: "Every 6 hours" },
  { value: "1440", label: "Once a day" },
  { value: "off", label: "Only when I sync" },
];

/** One CRM connection: its state, the running sync's progress, Sync now, the schedule, Disconnect, and its history. */
export function ConnectionCard({
  workspaceId,
  connection: c,
  onReconnect,
}: {
  workspaceId: string;
  connection: TConnectionView;
  onReconnect: () => void;
}) {
  const trpc = useTRPC();
  const administer = useCan("administer");
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.crm.connections.queryKey({ workspaceId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.crm.syncs.pathKey() }),
    ]);
  const onError = (err: { message: string }) =>
    notifications.show({ color: "red", title: "Nothing changed", message: err.message });
  const syncNow = useMutation(trpc.crm.syncNow.mutationOptions({ onSuccess: refresh, onError }));
  const schedule = useMutation(trpc.crm.setSchedule.mutationOptions({ onSuccess: refresh, onError }));
  const leads = useMutation(
    trpc.crm.setLeads.mutationOptions({
      onSuccess: async (view) => {
        notifications.show({
          color: "teal",
          title: view.leads ? "Leads will be synced" : "Leads are no longer synced",
          message: view.leads
            ? "The next sync reads every lead."
            : "Their contacts stay; they are no longer linked to the leads.",
        });
        await refresh();
      },
      onError,
    }),
  );
  const disconnect = useMutation(
    trpc.crm.disconnect.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        notifications.show({
          color: "teal",
          title: `${CRM_NAMES[c.kind]} disconnected`,
          message: "Its credentials are deleted; what it synced stays.",
        });
        await refresh();
      },
      onError,
    }),
  );
  const running = c.lastSync && (c.lastSync.status === "queued" || c.lastSync.status === "running") ? c.lastSync : null;
  const connected = c.status === "connected";
  const needsReconnect = c.status === "needs_reconnect";

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`crm-${c.connectionId}`}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="xs">
              <Title order={3} size="h4" id={`crm-${c.connectionId}`}>
                {c.name}
              </Title>
              <Badge color={connected ? "teal" : needsReconnect ? "orange" : "gray"} variant="light">
                {connected ? "Connected" : needsReconnect ? "Needs reconnecting" : "Disconnected"}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {connected || needsReconnect
                ? `Connected by ${c.connectedBy} on ${formatDateTime(c.connectedAt)}. Last successful sync: ${formatDateTime(c.lastSuccessfulSyncAt, "none yet")}.`
                : `Disconnected on ${formatDateTime(c.disconnectedAt)}: its credentials were deleted. What it synced stays here, marked as from ${CRM_NAMES[c.kind]}.`}
            </Text>
          </div>
          <Group gap="xs">
            {connected ? (
              <>
                <IfCan action="administer">
                  <Button
                    leftSection={<IconRefresh size={16} />}
                    onClick={() => syncNow.mutate({ workspaceId, connectionId: c.connectionId })}
                    loading={syncNow.isPending}
                    disabled={Boolean(running)}
                  >
                    {running ? "Syncing…" : "Sync now"}
                  </Button>
                </IfCan>
                <IfCan action="administer">
                  <Button
                    variant="light"
                    color="red"
                    leftSection={<IconUnlink size={16} />}
                    onClick={() => setConfirming(true)}
                  >
                    Disconnect
                  </Button>
                </IfCan>
              </>
            ) : needsReconnect ? (
              <>
                <IfCan action="administer">
                  <Button color="orange" onClick={onReconnect}>
                    Reconnect
                  </Button>
                </IfCan>
                <IfCan action="administer">
                  <Button
                    variant="light"
                    color="red"
                    leftSection={<IconUnlink size={16} />}
                    onClick={() => setConfirming(true)}
                  >
                    Disconnect
                  </Button>
                </IfCan>
              </>
            ) : (
              <IfCan action="administer">
                <Button onClick={onReconnect}>Connect again</Button>
              </IfCan>
            )}
          </Group>
        </Group>
        {needsReconnect && (
          <Alert color="orange" title={`${CRM_NAMES[c.kind]} refused the saved credentials`}>
            {c.attention ?? "The credentials no longer work."} Scheduled syncs are stopped until you reconnect; what was
            synced stays.
          </Alert>
        )}
        {(connected || needsReconnect) && !c.listsEnabled && (
          <Text size="sm" c="dimmed">
            Lists are not synced: these credentials cannot read {c.kind === "salesforce" ? "Campaigns" : "lists"}. Give
            them access and reconnect to sync them as audiences.
          </Text>
        )}
        {c.kind === "salesforce" && (connected || needsReconnect) && (
          <Switch
            label="Sync Leads"
            description={
              c.leadsNote && !c.leads
                ? c.leadsNote
                : c.leads
                  ? "Unconverted leads are synced as contacts, and lead members of campaigns join their audiences."
                  : "Leads are not synced: only Contacts become contacts. Turn on to sync unconverted leads too."
            }
            checked={c.leads}
            onChange={(e) =>
              leads.mutate({ workspaceId, connectionId: c.connectionId, leads: e.currentTarget.checked })
            }
            disabled={!administer.allowed || leads.isPending || Boolean(running) || (!connected && !c.leads)}
          />
        )}
        {(connected || needsReconnect) && <DealFilter workspaceId={workspaceId} connection={c} />}
        {connected && (
          <Select
            label="Scheduled sync"
            description={c.nextSyncAt ? `Next: ${formatDateTime(c.nextSyncAt)}` : "No scheduled syncs; use Sync now."}
            data={SCHEDULES}
            value={c.scheduleMinutes === null ? "off" : String(c.scheduleMinutes)}
            onChange={(v) =>
              v &&
              schedule.mutate({
                workspaceId,
                connectionId: c.connectionId,
                scheduleMinutes: v === "off" ? null : Number(v),
              })
            }
            allowDeselect={false}
            maw={320}
            disabled={schedule.isPending || !administer.allowed}
          />
        )}
        {running && (
          <Stack gap="xs">
            <JobProgress workspaceId={workspaceId} jobId={running.job.jobId} onFinished={() => void refresh()} />
            <CountsGrid counts={running.counts} />
          </Stack>
        )}
        <SyncHistory workspaceId={workspaceId} connectionId={c.connectionId} />
      </Stack>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Disconnect ${CRM_NAMES[c.kind]}?`}
        confirmLabel="Disconnect"
        color="red"
        loading={disconnect.isPending}
        onConfirm={() => disconnect.mutate({ workspaceId, connectionId: c.connectionId })}
      >
        <Text size="sm">
          The credentials are deleted at once, scheduled syncs stop{running ? " and the running sync is cancelled" : ""}
          . The contacts, accounts, audiences, suppressions and outcomes it synced stay, marked as from{" "}
          {CRM_NAMES[c.kind]}. You can connect again later.
        </Text>
      </ConfirmModal>
    </Paper>
  );
}
