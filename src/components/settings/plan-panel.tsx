"use client";

import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconCheck, IconInfoCircle, IconX } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { formatCents, formatDateTime, formatNumber } from "@/components/ui/format";
import { PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { BillingNotices, ManageBillingButton, SubscriptionFacts } from "./plan-billing";
import { IfCan } from "@/components/access/role";

type PlanName = "audit" | "paid";

/**
 * Settings → Plan: the two plans side by side, the current one marked, and the switch (confirmed
 * first). With Stripe the switch goes to Stripe Checkout (or, to leave the paid plan, Stripe's
 * billing portal), and the page shows the subscription's status, next invoice and last payment. A
 * paid plan no Stripe subscription bills (granted by the sandbox before Stripe billing was turned
 * on) is said to be unbilled, and leaving it happens at once: Stripe has nothing to cancel.
 */
export function PlanPanel({
  workspaceId,
  checkout = null,
}: {
  workspaceId: string;
  checkout?: "success" | "cancelled" | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  // Back from Checkout: look again every few seconds until Stripe's webhook has changed the plan.
  const overview = useQuery({
    ...trpc.plan.get.queryOptions({ workspaceId }),
    refetchInterval: (q) => (checkout === "success" && q.state.data?.plan === "audit" ? 3000 : false),
  });
  const [choosing, setChoosing] = useState<PlanName | null>(null);
  const [leaving, setLeaving] = useState(false);
  const change = useMutation(
    trpc.plan.change.mutationOptions({
      onSuccess: async (r) => {
        if ("checkoutUrl" in r || "portalUrl" in r) {
          // Stay "loading" while the browser leaves for Stripe.
          setLeaving(true);
          window.location.assign("checkoutUrl" in r ? r.checkoutUrl : r.portalUrl);
          return;
        }
        setChoosing(null);
        notifications.show({
          color: "teal",
          title: "Plan changed",
          message: r.plan === "paid" ? "Mailing is on." : "New mail has stopped.",
        });
        await queryClient.invalidateQueries();
        // The header's plan badge is rendered on the server.
        router.refresh();
      },
      onError: (err) => notifications.show({ color: "red", title: "The plan did not change", message: err.message }),
    }),
  );

  if (overview.isPending) return <Skeleton h={320} />;
  if (overview.isError) return <PageError message={overview.error.message} onRetry={() => overview.refetch()} />;
  const o = overview.data;
  const stripe = o.billing.provider === "stripe";
  // Stripe bills this installation, but not this workspace's paid plan (the sandbox granted it).
  const unbilled = stripe && o.billing.paidWithoutStripe;
  // The sandbox's subscription behind such a plan, if one is recorded.
  const grant = unbilled && o.subscription?.provider === "sandbox" ? o.subscription : null;
  // Leaving the paid plan through Stripe's billing portal (a Stripe-billed plan), or at once.
  const viaPortal = stripe && !unbilled;

  return (
    <Stack gap="md" maw={1000}>
      <div>
        <Title order={2} size="h3">
          Plan
        </Title>
        <Text c="dimmed" size="sm">
          This workspace is on the <b>{o.plans.find((p) => p.plan === o.plan)!.name.toLowerCase()}</b> since{" "}
          {formatDateTime(o.since)}.
        </Text>
      </div>
      <BillingNotices
        workspaceId={workspaceId}
        plan={o.plan}
        checkout={checkout}
        subscription={o.subscription}
        lastPayment={o.lastPayment}
        canManage={o.billing.canManage}
      />
      {unbilled && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} p="sm" title="The paid plan is not billed">
          {grant
            ? `This workspace was given the paid plan by the sandbox (subscription ${grant.providerRef} since ${formatDateTime(grant.startedAt)}), before billing ran through Stripe.`
            : "This workspace is on the paid plan without any subscription."}{" "}
          Stripe has no subscription for it, so nothing is billed and no card is charged; mailing is on. To have Stripe
          bill it, go back to the free audit plan (new mail stops), then choose the paid plan again: Stripe Checkout
          takes the card, and mailing turns back on once Stripe confirms the payment.
        </Alert>
      )}
      {!o.billing.chargesMoney && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} p="sm">
          Billing in this installation runs through the sandbox provider: choosing the paid plan starts a subscription
          record, and no card is charged.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {o.plans.map((p) => {
          const current = p.plan === o.plan;
          return (
            <Card
              key={p.plan}
              withBorder
              padding="lg"
              radius="md"
              style={current ? { borderColor: "var(--mantine-color-blue-6)", borderWidth: 2 } : undefined}
            >
              <Stack gap="sm" h="100%">
                <Group justify="space-between" align="flex-start">
                  <Title order={3} size="h4">
                    {p.name}
                  </Title>
                  {current && <Badge variant="light">Current plan</Badge>}
                </Group>
                <Text fw={700} size="xl">
                  {p.monthlyPriceCents ? (
                    <>
                      {formatCents(p.monthlyPriceCents)}
                      <Text span c="dimmed" size="sm" fw={400}>
                        {" "}
                        a month, plus the printer&apos;s price per piece
                      </Text>
                    </>
                  ) : (
                    "Free"
                  )}
                </Text>
                <Text size="sm">{p.summary}</Text>
                <List
                  spacing={6}
                  size="sm"
                  styles={{ itemWrapper: { alignItems: "flex-start" }, itemLabel: { lineHeight: 1.45 } }}
                >
                  {p.includes.map((line) => (
                    <List.Item
                      key={line}
                      icon={
                        <ThemeIcon color="teal" size={20} radius="xl" variant="light">
                          <IconCheck size={14} aria-label="Included" />
                        </ThemeIcon>
                      }
                    >
                      {line}
                    </List.Item>
                  ))}
                  {p.excludes.map((line) => (
                    <List.Item
                      key={line}
                      icon={
                        <ThemeIcon color="gray" size={20} radius="xl" variant="light">
                          <IconX size={14} aria-label="Not included" />
                        </ThemeIcon>
                      }
                    >
                      {line}
                    </List.Item>
                  ))}
                </List>
                <div style={{ marginTop: "auto" }}>
                  {current && unbilled ? (
                    <Text size="sm" c="dimmed">
                      {grant
                        ? `Not billed: no Stripe subscription. Granted by the sandbox subscription ${grant.providerRef} since ${formatDateTime(grant.startedAt)}.`
                        : "Not billed: no Stripe subscription, and no other subscription is recorded."}
                    </Text>
                  ) : current && stripe && p.plan === "paid" && o.subscription ? (
                    <Stack gap="sm">
                      <SubscriptionFacts subscription={o.subscription} lastPayment={o.lastPayment} />
                      {o.billing.canManage && <ManageBillingButton workspaceId={workspaceId} />}
                    </Stack>
                  ) : current ? (
                    <Stack gap="sm">
                      <Text size="sm" c="dimmed">
                        {o.subscription && o.subscription.provider === "sandbox"
                          ? `Subscription ${o.subscription.providerRef} (${o.subscription.provider}) since ${formatDateTime(o.subscription.startedAt)}.`
                          : o.plan === "paid"
                            ? "No subscription is recorded for this workspace."
                            : "No subscription: nothing is billed."}
                      </Text>
                      {stripe && o.billing.canManage && <ManageBillingButton workspaceId={workspaceId} />}
                    </Stack>
                  ) : (
                    <IfCan action="own">
                      <Button
                        fullWidth
                        variant={p.plan === "paid" ? "filled" : "default"}
                        onClick={() => setChoosing(p.plan as PlanName)}
                      >
                        {p.plan === "paid" ? "Choose the paid plan" : "Go back to the free audit plan"}
                      </Button>
                    </IfCan>
                  )}
                </div>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      {o.plan === "audit" && o.piecesAtPrinter > 0 && (
        <Alert color="gray" p="sm">
          {formatNumber(o.piecesAtPrinter)} {o.piecesAtPrinter === 1 ? "piece was" : "pieces were"} already with the
          printer when mailing stopped; they are still mailed and charged.
        </Alert>
      )}

      <ConfirmModal
        opened={choosing !== null}
        onClose={() => setChoosing(null)}
        title={choosing === "paid" ? "Choose the paid plan?" : "Go back to the free audit plan?"}
        confirmLabel={
          stripe && choosing === "paid"
            ? "Continue to payment"
            : viaPortal
              ? "Open the billing portal"
              : choosing === "paid"
                ? "Choose the paid plan"
                : "Stop mailing and go back"
        }
        color={choosing === "audit" ? "red" : undefined}
        loading={change.isPending || leaving}
        onConfirm={() => choosing && change.mutate({ workspaceId, plan: choosing })}
      >
        {stripe && choosing === "paid" ? (
          <Text size="sm">
            Stripe Checkout opens to take the card for a subscription of {formatCents(o.plans[1].monthlyPriceCents)} a
            month. The workspace moves to the paid plan, and mailing turns on, as soon as Stripe confirms the payment.
            Live campaigns then print and mail through their approved printer contracts, each piece charged at the
            printer&apos;s price and never above the campaign&apos;s budget.
          </Text>
        ) : viaPortal ? (
          <Text size="sm">
            Stripe&apos;s billing portal opens, where you cancel the subscription. When it ends, new mail stops at once:
            every piece not yet with the printer is skipped and its budget given back
            {o.piecesBeforePrinter ? ` (${formatNumber(o.piecesBeforePrinter)} now)` : ""}. Pieces the printer already
            has are still mailed.
          </Text>
        ) : unbilled ? (
          <Text size="sm">
            New mail stops at once: every piece not yet with the printer is skipped and its budget given back
            {o.piecesBeforePrinter ? ` (${formatNumber(o.piecesBeforePrinter)} now)` : ""}. Pieces the printer already
            has are still mailed. Stripe does not bill this paid plan, so there is nothing to cancel in Stripe&apos;s
            billing portal: {grant ? `the sandbox subscription ${grant.providerRef} ends now` : "the plan changes now"}.
            Choosing the paid plan again later goes through Stripe Checkout.
          </Text>
        ) : choosing === "paid" ? (
          <Text size="sm">
            Mailing turns on. Live campaigns print and mail through their approved printer contracts, each piece charged
            at the printer&apos;s price and never above the campaign&apos;s budget. The subscription is{" "}
            {formatCents(o.plans[1].monthlyPriceCents)} a month
            {o.billing.chargesMoney ? "." : " (sandbox billing: no card is charged)."}
          </Text>
        ) : (
          <Text size="sm">
            New mail stops at once: every piece not yet with the printer is skipped and its budget given back
            {o.piecesBeforePrinter ? ` (${formatNumber(o.piecesBeforePrinter)} now)` : ""}. Pieces the printer already
            has are still mailed. The subscription is cancelled.
          </Text>
        )}
      </ConfirmModal>
    </Stack>
  );
}
