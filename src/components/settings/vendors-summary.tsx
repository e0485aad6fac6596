"use client";

import { Badge, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/ui/data-table";
import { useTRPC } from "@/trpc/react";

/** Settings → Printing: each vendor a workspace can connect, what it fulfils, and its state here. */
export function VendorsSummary({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const vendors = useQuery(trpc.fulfilment.connectableVendors.queryOptions({ workspaceId }));
  const connections = useQuery(trpc.fulfilment.vendorConnections.queryOptions({ workspaceId }));
  if (vendors.isPending || connections.isPending) return <Skeleton h={90} />;
  if (!vendors.data) return null;
  return (
    <Stack gap={4}>
      <Title order={3} size="h4">
        Vendors
      </Title>
      <DataTable
        minWidth={520}
        head={
          <>
            <Table.Th>Vendor</Table.Th>
            <Table.Th>Fulfils</Table.Th>
            <Table.Th>State</Table.Th>
          </>
        }
      >
        {vendors.data.map((v) => {
          const c = connections.data?.find((x) => x.vendor === v.vendor && x.status !== "disconnected");
          return (
            <Table.Tr key={v.vendor}>
              <Table.Td>
                <Text fw={600} size="sm">
                  {v.label}
                </Text>
              </Table.Td>
              <Table.Td>{v.fulfils}</Table.Td>
              <Table.Td>
                {!c ? (
                  <Badge variant="light" color="gray">
                    Not connected
                  </Badge>
                ) : c.status === "key_revoked" ? (
                  <Badge variant="light" color="red">
                    Key refused
                  </Badge>
                ) : c.mode === "live" ? (
                  <Badge variant="light" color="teal">
                    Live
                  </Badge>
                ) : (
                  <Badge variant="light" color="yellow">
                    Test mode
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </DataTable>
    </Stack>
  );
}
