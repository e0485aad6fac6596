"use client";

import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertTriangle, IconCreditCard, IconInfoCircle } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { formatCents, formatDateTime } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

export interface PlanSubscription {
  providerRef: string;
  provider: string;
  status: "active" | "past_due" | "unpaid" | "incomplete" | "cancelled";
  startedAt: Date;
  cancelledAt: Date | null;
  nextInvoiceAt: Date | null;
  endsAt: Date | null;
}
export interface PlanPayment {
  status: "paid" | "payment_failed";
  amountCents: number;
  currency: string;
  at: Date;
  nextAttemptAt: Date | null;
  invoiceUrl: string | null;
}

const STATUS_WORDS: Record<PlanSubscription["status"], string> = {
  active: "Active",
  past_due: "Past due: Stripe is retrying the payment",
  unpaid: "Unpaid: Stripe stopped collecting",
  incomplete: "Incomplete: the first payment did not go through",
  cancelled: "Ended",
};

const amount = (p: { amountCents: number; currency: string }) =>
  p.currency.toLowerCase() === "usd"
    ? formatCents(p.amountCents)
    : `${(p.amountCents / 100).toFixed(2)} ${p.currency.toUpperCase()}`;

/** "Manage billing": opens Stripe's customer portal (card, invoices, cancel) in this tab. */
export function ManageBillingButton({
  workspaceId,
  variant = "default",
}: {
  workspaceId: string;
  variant?: "default" | "filled";
}) {
  const trpc = useTRPC();
  const portal = useMutation(
    trpc.plan.billingPortal.mutationOptions({
      onSuccess: (r) => window.location.assign(r.portalUrl),
      onError: (err) =>
        notifications.show({ color: "red", title: "The billing portal did not open", message: err.message }),
    }),
  );
  return (
    <IfCan action="own">
      <Button
        variant={variant}
        leftSection={<IconCreditCard size={16} aria-hidden />}
        loading={portal.isPending}
        onClick={() => portal.mutate({ workspaceId })}
      >
        Manage billing
      </Button>
    </IfCan>
  );
}

/** The subscription's status, next invoice date and last payment, as Stripe last reported them. */
export function SubscriptionFacts({
  subscription,
  lastPayment,
}: {
  subscription: PlanSubscription;
  lastPayment: PlanPayment | null;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm">
        <b>Status:</b> {STATUS_WORDS[subscription.status]}
        {subscription.endsAt ? `; ends ${formatDateTime(subscription.endsAt)} (cancelled in the billing portal)` : ""}
      </Text>
      {subscription.nextInvoiceAt && (
        <Text size="sm">
          <b>Next invoice:</b> {formatDateTime(subscription.nextInvoiceAt)}
        </Text>
      )}
      <Text size="sm">
        <b>Last payment:</b>{" "}
        {lastPayment ? (
          <>
            {lastPayment.status === "paid"
              ? `${amount(lastPayment)} paid ${formatDateTime(lastPayment.at)}`
              : `${amount(lastPayment)} failed ${formatDateTime(lastPayment.at)}`}
            {lastPayment.invoiceUrl && (
              <>
                {" "}
                (
                <Anchor href={lastPayment.invoiceUrl} target="_blank" rel="noreferrer" size="sm">
                  invoice
                </Anchor>
                )
              </>
            )}
          </>
        ) : (
          "none reported by Stripe yet"
        )}
      </Text>
      <Text size="xs" c="dimmed">
        Subscription {subscription.providerRef} since {formatDateTime(subscription.startedAt)}.
      </Text>
    </Stack>
  );
}

/** Warnings and notices above the plans: a failed payment, an ended subscription, the way back from Checkout. */
export function BillingNotices(p: {
  workspaceId: string;
  plan: "audit" | "paid";
  checkout: "success" | "cancelled" | null;
  subscription: PlanSubscription | null;
  lastPayment: PlanPayment | null;
  canManage: boolean;
}) {
  const failed = p.lastPayment?.status === "payment_failed" ? p.lastPayment : null;
  return (
    <>
      {p.checkout === "success" && p.plan === "audit" && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />} p="sm" role="status">
          Checkout is done. The paid plan starts as soon as Stripe confirms the payment to this service; this page
          checks every few seconds.
        </Alert>
      )}
      {p.checkout === "success" && p.plan === "paid" && (
        <Alert color="teal" icon={<IconInfoCircle size={18} />} p="sm" role="status">
          Stripe confirmed the payment: the workspace is on the paid plan and mailing is on.
        </Alert>
      )}
      {p.checkout === "cancelled" && p.plan === "audit" && (
        <Alert color="gray" icon={<IconInfoCircle size={18} />} p="sm" role="status">
          Checkout was left before paying: nothing was charged, and the workspace stays on the free audit plan.
        </Alert>
      )}
      {p.subscription?.status === "past_due" && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} p="sm" title="A payment failed">
          <Stack gap="xs">
            <Text size="sm">
              Stripe could not collect{" "}
              {failed ? `${amount(failed)} on ${formatDateTime(failed.at)}` : "the last invoice"}. Mailing stays on
              while Stripe retries
              {failed?.nextAttemptAt ? ` (next attempt ${formatDateTime(failed.nextAttemptAt)})` : ""}; if the
              subscription ends unpaid, the workspace goes back to the free audit plan and new mail stops.
            </Text>
            {p.canManage && (
              <Group>
                <ManageBillingButton workspaceId={p.workspaceId} variant="filled" />
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {p.plan === "audit" &&
        p.subscription &&
        p.subscription.status !== "active" &&
        p.subscription.status !== "past_due" && (
          <Alert color="gray" p="sm">
            The Stripe subscription{" "}
            {p.subscription.status === "cancelled"
              ? `ended ${formatDateTime(p.subscription.cancelledAt)}`
              : `is ${STATUS_WORDS[p.subscription.status].toLowerCase()}`}
            : the workspace is on the free audit plan and new mail has stopped.
          </Alert>
        )}
    </>
  );
}
