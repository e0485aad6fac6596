"use client";

import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { IconPlus, IconPrinter } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { DataTable } from "@/components/ui/data-table";
import { formatCents } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { piecePriceAmount, piecePriceWords, pricesVaryByCountry } from "@/server/programme/fulfilment/price-words";
import { useTRPC } from "@/trpc/react";
import { AddContractModal, countryName } from "./add-contract-modal";
import { HandwryttenConnectionCard } from "./handwrytten-connection-card";
import { LobConnectionCard } from "./lob-connection-card";
import { IfCan } from "@/components/access/role";
import { testModeWords, vendorName } from "./vendor-names";
import { VendorsSummary } from "./vendors-summary";

const statusColor = { approved: "teal", proposed: "yellow", revoked: "gray" } as const;

/** Settings → Printing: the workspace's printer contracts; the owner proposes, approves and revokes them. */
export function PrintingPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const contracts = useQuery(trpc.fulfilment.contracts.queryOptions({ workspaceId }));
  const plan = useQuery(trpc.plan.get.queryOptions({ workspaceId }));
  const [adding, { open, close }] = useDisclosure(false);
  const [acting, setActing] = useState<{
    id: string;
    name: string;
    unitCostCents: number;
    countryPrices: Record<string, number>;
    action: "approve" | "revoke";
    campaigns: number;
  } | null>(null);
  const done = async (title: string, message: string) => {
    setActing(null);
    notifications.show({ color: "teal", title, message });
    await queryClient.invalidateQueries({ queryKey: trpc.fulfilment.contracts.queryKey({ workspaceId }) });
  };
  const onError = (err: { message: string }) =>
    notifications.show({ color: "red", title: "Nothing changed", message: err.message });
  const approve = useMutation(
    trpc.fulfilment.approve.mutationOptions({
      onSuccess: (c) => done("Contract approved", `Campaigns on ${c.name} can print.`),
      onError,
    }),
  );
  const revoke = useMutation(
    trpc.fulfilment.revoke.mutationOptions({
      onSuccess: (c) => done("Contract revoked", `Nothing more is printed through ${c.name}.`),
      onError,
    }),
  );
  const addButton = (
    <IfCan action="administer">
      <Button leftSection={<IconPlus size={16} />} onClick={open}>
        Add a contract
      </Button>
    </IfCan>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3">
            Printing
          </Title>
          <Text c="dimmed" size="sm" maw={680}>
            A campaign prints and mails only through a contract you approved, for its format, at the printer&apos;s
            quoted price per piece. The sandbox printer is always available to try the whole path; it prints and posts
            nothing.
          </Text>
        </div>
        {addButton}
      </Group>
      <VendorsSummary workspaceId={workspaceId} />
      <LobConnectionCard workspaceId={workspaceId} />
      <HandwryttenConnectionCard workspaceId={workspaceId} />
      {plan.data?.plan === "audit" && (
        <Alert color="yellow" p="sm">
          This workspace is on the free audit plan: approved contracts print nothing until you{" "}
          <Anchor component={Link} href={`/w/${workspaceId}/settings/plan`}>
            choose the paid plan
          </Anchor>
          .
        </Alert>
      )}
      <ListStates
        query={contracts}
        items={contracts.data}
        loading={<Skeleton h={160} />}
        empty={
          <EmptyState
            title="No printer yet"
            action={
              <IfCan action="administer">
                <Button leftSection={<IconPrinter size={16} />} onClick={open}>
                  Add your first contract
                </Button>
              </IfCan>
            }
          >
            Add a contract with a printer for the format your campaigns use, then approve it. Start with the sandbox
            printer to see every step without printing anything.
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable
            minWidth={860}
            head={
              <>
                <Table.Th>Contract</Table.Th>
                <Table.Th>Product</Table.Th>
                <Table.Th>Countries</Table.Th>
                <Table.Th ta="right">Per piece</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {items.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {vendorName(c.vendor)}
                    {c.mode === "test" ? ` (${testModeWords(c.vendor)})` : c.mode === "live" ? " (live)" : ""} ·{" "}
                    {c.campaigns} {c.campaigns === 1 ? "campaign" : "campaigns"}
                  </Text>
                </Table.Td>
                <Table.Td>{c.sizeLabel}</Table.Td>
                <Table.Td>
                  <Tooltip label={c.countries.map(countryName).join(", ")} multiline w={260}>
                    <Text size="sm" tabIndex={0}>
                      {c.countries.slice(0, 4).join(", ")}
                      {c.countries.length > 4 ? ` +${c.countries.length - 4}` : ""}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td ta="right">
                  {piecePriceAmount(c, formatCents)}
                  {pricesVaryByCountry(c) && (
                    <Text size="xs" c="dimmed">
                      by the recipient&apos;s country
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={statusColor[c.status]} variant="light">
                    {c.status}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {c.status === "proposed" && (
                      <IfCan action="administer">
                        <Button
                          size="xs"
                          onClick={() => setActing({ ...c, action: "approve" })}
                          aria-label={`Approve ${c.name}`}
                        >
                          Approve
                        </Button>
                      </IfCan>
                    )}
                    {c.status !== "revoked" && (
                      <IfCan action="administer">
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => setActing({ ...c, action: "revoke" })}
                          aria-label={`Revoke ${c.name}`}
                        >
                          Revoke
                        </Button>
                      </IfCan>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </ListStates>

      <AddContractModal workspaceId={workspaceId} opened={adding} onClose={close} />
      <ConfirmModal
        opened={acting !== null}
        onClose={() => setActing(null)}
        title={acting?.action === "approve" ? "Approve this contract?" : "Revoke this contract?"}
        confirmLabel={acting?.action === "approve" ? "Approve contract" : "Revoke contract"}
        color={acting?.action === "revoke" ? "red" : undefined}
        loading={approve.isPending || revoke.isPending}
        onConfirm={() =>
          acting && (acting.action === "approve" ? approve : revoke).mutate({ workspaceId, contractId: acting.id })
        }
      >
        {acting?.action === "approve" ? (
          <Text size="sm">
            Campaigns on <b>{acting?.name}</b> can then print and mail at{" "}
            {acting ? piecePriceWords(acting, formatCents) : ""}, within each campaign&apos;s budget
            {plan.data?.plan === "audit" ? ", once the workspace is on the paid plan" : ""}.
          </Text>
        ) : (
          <Text size="sm">
            Nothing more is printed through <b>{acting?.name}</b>
            {acting?.campaigns
              ? ` (used by ${acting.campaigns} ${acting.campaigns === 1 ? "campaign" : "campaigns"})`
              : ""}
            : pieces the printer does not have yet are skipped and their budget given back. This cannot be undone; add a
            new contract to print again.
          </Text>
        )}
      </ConfirmModal>
    </Stack>
  );
}
