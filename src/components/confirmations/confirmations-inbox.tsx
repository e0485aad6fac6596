"use client";

import { Anchor, Badge, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconClock } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { formatCents, formatDateTime } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { CardCopySample } from "./card-copy-sample";
import { RoleNote, useCan } from "@/components/access/role";

const statusColor = { pending: "yellow", accepted: "teal", declined: "gray", expired: "dark" } as const;

/**
 * The owner's inbox of confirmation cards: printing, approval and spending that wait for a person.
 * Accepting here, in the signed-in browser, is the only way a card is accepted.
 */
export function ConfirmationsInbox({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  // Members and viewers read the cards; an approver, admin or owner decides (a plan change: the owner alone).
  const decideCan = useCan("decide");
  const ownCan = useCan("own");
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<"pending" | "decided">("pending");
  const cards = useQuery(
    trpc.confirmation.list.queryOptions({ workspaceId, status: tab }, { refetchInterval: 10_000 }),
  );
  // A link to one card (#card-…, as agents hand them out) scrolls to it once the cards are in.
  const loaded = cards.data !== undefined;
  useEffect(() => {
    if (!loaded || !window.location.hash.startsWith("#card-")) return;
    const heading = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (!heading) return;
    heading.scrollIntoView({ block: "center" });
    heading.closest("article")?.focus({ preventScroll: true });
  }, [loaded]);
  const decide = useMutation(
    trpc.confirmation.decide.mutationOptions({
      onSuccess: async (card) => {
        // An accepted plan change under Stripe billing: the owner goes on to Stripe Checkout (or the billing portal).
        const result = (card.result ?? {}) as { checkoutUrl?: unknown; portalUrl?: unknown };
        const stripeUrl =
          typeof result.checkoutUrl === "string"
            ? result.checkoutUrl
            : typeof result.portalUrl === "string"
              ? result.portalUrl
              : null;
        if (card.status === "accepted" && !card.executionError && stripeUrl) {
          notifications.show({ color: "teal", title: "Accepted", message: "Opening Stripe…" });
          window.location.assign(stripeUrl);
          return;
        }
        notifications.show({
          color: card.status === "accepted" ? "teal" : "gray",
          title: card.status === "accepted" ? "Accepted" : "Declined",
          message: card.executionError ? `Recorded, but the action failed: ${card.executionError}` : card.title,
        });
        await queryClient.invalidateQueries({ queryKey: trpc.confirmation.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.campaign.pathKey() });
      },
      onError: async (err) => {
        notifications.show({ color: "red", title: "Not decided", message: err.message });
        await queryClient.invalidateQueries({ queryKey: trpc.confirmation.pathKey() });
      },
    }),
  );

  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Confirmations
        </Title>
        <SegmentedControl
          value={tab}
          onChange={(v) => setTab(v as typeof tab)}
          data={[
            { value: "pending", label: "Waiting for you" },
            { value: "decided", label: "Decided" },
          ]}
        />
      </Group>
      <Text size="sm" c="dimmed">
        Printing, approval and spending wait here until you accept them. Agents and API keys can ask; only you decide.
      </Text>
      <ListStates
        query={cards}
        items={cards.data}
        loading={<Skeleton h={160} />}
        empty={
          <EmptyState title={tab === "pending" ? "Nothing waits for you" : "No decisions yet"}>
            {tab === "pending"
              ? "When an agent asks to go live, print or spend, or a review gate holds a piece, the request appears here."
              : "Cards you accept or decline are kept here with who asked and who decided."}
          </EmptyState>
        }
      >
        {(items) =>
          items.map((card) => (
            <Paper
              key={card.id}
              withBorder
              p="lg"
              component="article"
              aria-labelledby={`card-${card.id}`}
              tabIndex={-1}
            >
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <div>
                  <Title order={2} size="h4" id={`card-${card.id}`}>
                    {card.title}
                  </Title>
                  <Text size="sm" c="dimmed">
                    Asked by {card.requestedByLabel} · {formatDateTime(card.createdAt)}
                  </Text>
                </div>
                <Badge color={statusColor[card.status]} variant="light">
                  {card.status}
                </Badge>
              </Group>
              <Text mt="sm">{card.summary}</Text>
              {card.kind === "go_live" && <CardCopySample workspaceId={workspaceId} params={card.params} />}
              <Group gap="lg" mt="sm">
                {card.costCents !== null && <Text size="sm">Cost {formatCents(card.costCents)}</Text>}
                {card.recipients !== null && <Text size="sm">Recipients {card.recipients}</Text>}
                {card.budgetAfterCents !== null && (
                  <Text size="sm">Budget after {formatCents(card.budgetAfterCents)}</Text>
                )}
                {card.pieceId && (
                  <Anchor
                    size="sm"
                    href={`/api/pieces/${card.pieceId}/proof?workspaceId=${workspaceId}`}
                    target="_blank"
                    rel="noopener"
                  >
                    Open the proof
                  </Anchor>
                )}
                {card.campaignId && (
                  <Anchor size="sm" component={Link} href={`/w/${workspaceId}/campaigns/${card.campaignId}`}>
                    Open the campaign
                  </Anchor>
                )}
              </Group>
              {card.status === "pending" ? (
                <Group justify="space-between" mt="md">
                  <Group gap={4}>
                    <IconClock size={14} aria-hidden />
                    <Text size="xs" c="dimmed">
                      Expires {formatDateTime(card.expiresAt)}
                    </Text>
                  </Group>
                  <Group gap="xs">
                    <RoleNote can={decideCan}>
                      <Button
                        variant="default"
                        disabled={!decideCan.allowed}
                        loading={
                          decide.isPending &&
                          decide.variables?.cardId === card.id &&
                          decide.variables?.decision === "decline"
                        }
                        onClick={() => decide.mutate({ workspaceId, cardId: card.id, decision: "decline" })}
                      >
                        Decline
                      </Button>
                    </RoleNote>
                    <RoleNote can={card.kind === "change_plan" && decideCan.allowed ? ownCan : decideCan}>
                      <Button
                        disabled={!decideCan.allowed || (card.kind === "change_plan" && !ownCan.allowed)}
                        loading={
                          decide.isPending &&
                          decide.variables?.cardId === card.id &&
                          decide.variables?.decision === "accept"
                        }
                        onClick={() => decide.mutate({ workspaceId, cardId: card.id, decision: "accept" })}
                      >
                        Accept
                      </Button>
                    </RoleNote>
                  </Group>
                </Group>
              ) : (
                <Text size="xs" c="dimmed" mt="md">
                  {card.status === "expired"
                    ? `Expired ${formatDateTime(card.decidedAt ?? card.expiresAt)}`
                    : `${card.status === "accepted" ? "Accepted" : "Declined"} ${formatDateTime(card.decidedAt)}`}
                  {card.executionError ? ` · the action failed: ${card.executionError}` : ""}
                </Text>
              )}
            </Paper>
          ))
        }
      </ListStates>
    </Stack>
  );
}
