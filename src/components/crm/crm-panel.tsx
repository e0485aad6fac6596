"use client";

import { Button, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconPlugConnected } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState, PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { ConnectModal, CRM_NAMES, type CrmKindName } from "./connect-modal";
import { ConnectionCard } from "./connection-card";
import { useCan } from "@/components/access/role";

const ACTIVE = new Set(["queued", "running"]);

/** Settings → CRM: connect HubSpot or Salesforce, see each connection's syncs, sync now, disconnect. */
export function CrmPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const connections = useQuery({
    ...trpc.crm.connections.queryOptions({ workspaceId }),
    refetchInterval: (q) => (q.state.data?.some((c) => c.lastSync && ACTIVE.has(c.lastSync.status)) ? 2000 : false),
  });
  const [connecting, setConnecting] = useState<CrmKindName | null>(null);
  const missing = (["hubspot", "salesforce"] as const).filter((k) => !connections.data?.some((c) => c.kind === k));
  const administer = useCan("administer");
  const connectButtons = (variant: "filled" | "default") =>
    (administer.allowed ? missing : []).map((k) => (
      <Button key={k} variant={variant} leftSection={<IconPlugConnected size={16} />} onClick={() => setConnecting(k)}>
        Connect {CRM_NAMES[k]}
      </Button>
    ));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            CRM
          </Title>
          <Text c="dimmed" size="sm" maw={720}>
            Bring in contacts with their addresses, companies as accounts, lists as audiences and opt-outs as
            suppressions, and count deals as outcomes in your holdout results. Syncs only read from your CRM; after the
            first, each reads only what changed.
          </Text>
        </div>
        {connections.data?.length ? <Group gap="xs">{connectButtons("default")}</Group> : null}
      </Group>
      {connections.isPending ? (
        <Skeleton h={200} />
      ) : connections.isError ? (
        <PageError message={connections.error.message} onRetry={() => connections.refetch()} />
      ) : connections.data.length === 0 ? (
        <EmptyState title="No CRM connected" action={<Group justify="center">{connectButtons("filled")}</Group>}>
          Connect HubSpot with a private app&apos;s token, or Salesforce with a connected app, to keep your audiences
          current and measure lift on your own opportunities and closed-won revenue.
        </EmptyState>
      ) : (
        connections.data.map((c) => (
          <ConnectionCard
            key={c.connectionId}
            workspaceId={workspaceId}
            connection={c}
            onReconnect={() => setConnecting(c.kind)}
          />
        ))
      )}
      {connecting && (
        <ConnectModal
          workspaceId={workspaceId}
          kind={connecting}
          leads={connections.data?.find((c) => c.kind === connecting)?.leads ?? false}
          opened
          onClose={() => setConnecting(null)}
        />
      )}
    </Stack>
  );
}
