"use client";

import { Badge, Button, Group, Paper, Select, SimpleGrid, Skeleton, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { StatCard } from "@/components/ui/stat-card";
import {
  PAGE_ACTION_KINDS,
  RESPONSE_KINDS,
  responseKindLabels,
  type TResponseKind,
} from "@/server/programme/responses/kinds";
import { useTRPC } from "@/trpc/react";

/** The hosted-page actions a campaign's page offers, for its kind of page and call to action (others show once they happened). */
function shownKinds(responseMode: string, callToAction: string): TResponseKind[] {
  if (responseMode === "gift_claim") return ["page_view", "gift_claim", "address_change", "gift_decline"];
  if (responseMode === "landing_page")
    return [
      "page_view",
      callToAction === "meeting" ? "meeting_click" : callToAction === "visit_site" ? "site_click" : "reply",
    ];
  return [];
}

function Details({
  r,
}: {
  r: {
    kind: string;
    reply: { text: string; replyTo: string | null } | null;
    gift: { name: string } | null;
    address: {
      addressLine1: string;
      addressLine2: string | null;
      city: string;
      region: string | null;
      postalCode: string | null;
      country: string;
      version: number;
    } | null;
  };
}) {
  if (r.reply) {
    return (
      <>
        <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
          {r.reply.text}
        </Text>
        {r.reply.replyTo && (
          <Text size="xs" c="dimmed">
            Reach them at {r.reply.replyTo}
          </Text>
        )}
      </>
    );
  }
  if (r.gift) return <Text size="sm">{r.gift.name}</Text>;
  if (r.address) {
    const a = r.address;
    return (
      <Text size="sm">
        {[a.addressLine1, a.addressLine2, [a.city, a.region, a.postalCode].filter(Boolean).join(" "), a.country]
          .filter(Boolean)
          .join(", ")}{" "}
        <Text span size="xs" c="dimmed">
          (version {a.version}; earlier versions kept)
        </Text>
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

/**
 * What recipients did with the campaign's printed links and hosted page, as the service observed
 * it: counts per action, and each one (with a reply's text, the gift chosen, a new address).
 */
export function CampaignResponses({
  workspaceId,
  campaignId,
  responseMode,
  callToAction,
}: {
  workspaceId: string;
  campaignId: string;
  responseMode: string;
  callToAction: string;
}) {
  const trpc = useTRPC();
  const [kind, setKind] = useState<TResponseKind | null>(null);
  const counts = useQuery(trpc.response.counts.queryOptions({ workspaceId, campaignId }, { refetchInterval: 15_000 }));
  const list = useInfiniteQuery(
    trpc.response.list.infiniteQueryOptions(
      { workspaceId, campaignId, take: 25, kind: kind ?? undefined },
      { getNextPageParam: (last) => last.nextCursor, refetchInterval: 15_000 },
    ),
  );
  const rows = list.data?.pages.flatMap((p) => p.responses) ?? [];
  const shown = shownKinds(responseMode, callToAction);
  const others = PAGE_ACTION_KINDS.filter((k) => !shown.includes(k) && (counts.data?.[k] ?? 0) > 0);
  return (
    <Paper withBorder p="md" id="responses">
      <Group justify="space-between" align="flex-end" mb="sm">
        <div>
          <Title order={2} size="h4">
            Responses
          </Title>
          <Text size="sm" c="dimmed">
            Observed by the service itself, each once per occurrence: scans and clicks of the printed link
            {responseMode === "redirect" ? "" : ", and what recipients did on their page"}.
          </Text>
        </div>
        <Select
          label="Show"
          w={220}
          data={[
            { value: "", label: "Every kind" },
            ...RESPONSE_KINDS.map((k) => ({ value: k, label: responseKindLabels[k] })),
          ]}
          value={kind ?? ""}
          onChange={(v) => setKind((v || null) as TResponseKind | null)}
          allowDeselect={false}
        />
      </Group>
      {counts.isPending ? (
        <Skeleton h={80} mb="md" />
      ) : counts.data ? (
        <SimpleGrid cols={{ base: 2, md: 4 }} mb="md">
          {[...new Set<TResponseKind>(["scan", "click", ...shown, ...others])].map((k) => (
            <StatCard key={k} label={responseKindLabels[k]} value={formatNumber(counts.data[k])} />
          ))}
        </SimpleGrid>
      ) : null}
      <ListStates
        query={list}
        items={rows}
        loading={<Skeleton h={120} />}
        empty={
          <EmptyState
            title={kind ? `Nothing of this kind yet: ${responseKindLabels[kind].toLowerCase()}` : "No responses yet"}
          >
            When a recipient scans, opens or uses their link, it shows here.
          </EmptyState>
        }
      >
        {(items) => (
          <>
            <DataTable
              minWidth={720}
              variant="compact"
              head={
                <>
                  <Table.Th>When</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Recipient</Table.Th>
                  <Table.Th>Details</Table.Th>
                </>
              }
            >
              {items.map((r) => (
                <Table.Tr key={r.responseId}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(r.occurredAt)}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={
                        r.kind === "reply" || r.kind === "gift_claim"
                          ? "teal"
                          : r.kind === "gift_decline"
                            ? "orange"
                            : "gray"
                      }
                    >
                      {responseKindLabels[r.kind]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {r.recipient}
                    {r.company && (
                      <Text size="xs" c="dimmed">
                        {r.company}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td maw={420}>
                    <Details r={r} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
            {list.hasNextPage && (
              <Group justify="center" mt="sm">
                <Button variant="subtle" loading={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
                  Show more
                </Button>
              </Group>
            )}
          </>
        )}
      </ListStates>
    </Paper>
  );
}
