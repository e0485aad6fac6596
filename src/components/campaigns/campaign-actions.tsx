"use client";

import { Button, Group, List, Modal, NumberInput, Stack, Text, Tooltip } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TCampaignDetail } from "@/server/programme/campaigns/service";
import { formatCents } from "@/components/ui/format";
import { piecePriceWords } from "@/server/programme/fulfilment/price-words";
import { useTRPC } from "@/trpc/react";
import { RoleNote, useCan } from "@/components/access/role";

export type Pending = "goLive" | "pause" | "resume" | "end" | "budget" | null;

/**
 * The campaign's consequential actions. Each opens a confirmation that says what will happen;
 * nothing changes until the person confirms.
 */
export function CampaignActions({
  workspaceId,
  campaign,
  pending,
  setPending,
  blockers,
}: {
  workspaceId: string;
  campaign: TCampaignDetail;
  pending: Pending;
  setPending: (p: Pending) => void;
  /** Labels of the readiness items still open (a draft only); going live waits for none. */
  blockers: string[] | undefined;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [budget, setBudget] = useState<number | string>(campaign.budgetCents / 100);
  const refresh = async () => {
    setPending(null);
    await queryClient.invalidateQueries({ queryKey: trpc.campaign.pathKey() });
  };
  // A refusal stays until it is closed, and the campaign is read again: the next try sends what is now true.
  const onError = (err: { message: string }) => {
    notifications.show({ color: "red", title: "Not done", message: err.message, autoClose: false });
    return queryClient.invalidateQueries({ queryKey: trpc.campaign.pathKey() });
  };
  const goLive = useMutation(trpc.campaign.goLive.mutationOptions({ onSuccess: refresh, onError }));
  const drafts = useQuery({
    ...trpc.draft.summary.queryOptions({ workspaceId, campaignId: campaign.id }),
    enabled: campaign.status === "draft",
  });
  // Who enters the moment the person confirms (the whole audience, for most policies), asked for when the dialog opens.
  const entry = useQuery({
    ...trpc.campaign.goLivePreview.queryOptions({ workspaceId, campaignId: campaign.id }),
    enabled: campaign.status === "draft" && pending === "goLive",
  });
  const change = useMutation(trpc.campaign.changeState.mutationOptions({ onSuccess: refresh, onError }));
  const setBudgetMutation = useMutation(trpc.campaign.setBudget.mutationOptions({ onSuccess: refresh, onError }));
  // A member asks instead: each request makes a confirmation card that an approver, an admin or the owner decides.
  const decide = useCan("decide");
  const request = useCan("request");
  const prepare = useCan("prepare");
  const asks = !decide.allowed && request.allowed;
  const asked = async (card: { title: string }) => {
    notifications.show({
      color: "teal",
      title: "Asked",
      message: `${card.title}: a confirmation card now waits for an approver, an admin or the owner. Nothing changes until one accepts it.`,
    });
    await refresh();
  };
  const requestGoLive = useMutation(trpc.confirmation.requestGoLive.mutationOptions({ onSuccess: asked, onError }));
  const requestBudget = useMutation(trpc.confirmation.requestBudget.mutationOptions({ onSuccess: asked, onError }));
  const requestResume = useMutation(trpc.confirmation.requestResume.mutationOptions({ onSuccess: asked, onError }));
  const busy =
    goLive.isPending ||
    change.isPending ||
    setBudgetMutation.isPending ||
    requestGoLive.isPending ||
    requestBudget.isPending ||
    requestResume.isPending;
  const askNote = (
    <Text size="sm" c="dimmed">
      Your role cannot do this itself: this makes a confirmation card for an approver, an admin or the owner, and
      nothing changes until one of them accepts it.
    </Text>
  );

  const headroom = campaign.budgetCents - campaign.spentCents - campaign.reservedCents;
  const contract = campaign.fulfilmentContract;
  const confirmations: Record<
    Exclude<Pending, null>,
    { title: string; body: React.ReactNode; cta: string; color?: string; run: () => void }
  > = {
    goLive: {
      title: asks ? "Ask for go-live?" : "Go live?",
      cta: asks ? "Ask for go-live" : "Go live",
      body: (
        <Stack gap="xs">
          {asks && askNote}
          <List size="sm" spacing={4}>
            {/* The most consequential first: who enters, and is mailed, the moment the person confirms. */}
            <List.Item>
              {entry.data ? (
                <Text size="sm" fw={600} component="span">
                  {entry.data.sentence}
                </Text>
              ) : entry.isError ? (
                `Who enters when you confirm could not be worked out: ${entry.error.message}`
              ) : (
                "Working out who enters when you confirm…"
              )}
            </List.Item>
            <List.Item>
              The entry policy is frozen: this campaign {campaign.acceptsApiEvents ? "accepts" : "does not accept"}{" "}
              entry events from API keys, for good.
            </List.Item>
            <List.Item>
              {Math.round(campaign.holdoutShare * 100)}% of the {campaign.audience?._count.members ?? 0}-contact
              audience&apos;s accounts are held out, once, and never mailed.
            </List.Item>
            <List.Item>
              Each piece is printed and mailed when its recipient enters
              {campaign.reviewGate === "each_piece" ? ", after a person approves it" : ""}, up to a budget of{" "}
              {formatCents(campaign.budgetCents)}
              {contract?.unitCostCents ? ` (${piecePriceWords(contract, formatCents)})` : ""}.
            </List.Item>
            {campaign.printerMode === "test" && (
              <List.Item>
                The printer works through a test key: nothing is really printed or mailed, and nothing is paid to the
                printer.
              </List.Item>
            )}
            {drafts.data && (
              <List.Item>
                {drafts.data.total === 0
                  ? "No drafts were generated: each recipient's piece is rendered when they enter."
                  : `${drafts.data.total} drafts are approved with it, ${drafts.data.edited} rewritten for their recipient${drafts.data.overflowing ? `, ${drafts.data.overflowing} with text that does not fit` : ""}${drafts.data.missingData ? `, ${drafts.data.missingData} missing merge data` : ""}.${drafts.data.mailabilitySentence ? ` ${drafts.data.mailabilitySentence}` : ""}`}
              </List.Item>
            )}
            {campaign.plan !== "paid" && <List.Item>On the free audit plan nothing reaches a mailbox.</List.Item>}
            {campaign.fulfilmentContract?.status !== "approved" ? (
              <List.Item>There is no approved fulfilment contract: nothing will be printed.</List.Item>
            ) : null}
          </List>
        </Stack>
      ),
      run: async () => {
        if (asks) {
          requestGoLive.mutate({ workspaceId, campaignId: campaign.id });
          return;
        }
        // What the dialog said is read again first: an audience that grew or shrank meanwhile is shown before anything goes live.
        const shown = entry.data;
        const fresh = (await entry.refetch()).data;
        if (
          shown &&
          fresh &&
          (fresh.enterNow !== shown.enterNow ||
            fresh.toMail !== shown.toMail ||
            fresh.estimatedCostCents !== shown.estimatedCostCents)
        ) {
          notifications.show({
            color: "yellow",
            title: "Nothing went live yet",
            message: "Who enters changed while this was open: read the new figures, then confirm again.",
          });
          return;
        }
        goLive.mutate({ workspaceId, campaignId: campaign.id, draftVersion: campaign.draftVersion });
      },
    },
    pause: {
      title: "Pause the campaign?",
      cta: "Pause",
      body: (
        <Text size="sm">New entry events are refused and pieces not yet with the printer wait until you resume.</Text>
      ),
      run: () => change.mutate({ workspaceId, campaignId: campaign.id, change: "pause" }),
    },
    resume: {
      title: asks ? "Ask to resume the campaign?" : "Resume the campaign?",
      cta: asks ? "Ask to resume" : "Resume",
      body: (
        <Stack gap="xs">
          {asks && askNote}
          <Text size="sm">Waiting pieces continue through the gates and entry events are accepted again.</Text>
        </Stack>
      ),
      run: () =>
        asks
          ? requestResume.mutate({ workspaceId, campaignId: campaign.id })
          : change.mutate({ workspaceId, campaignId: campaign.id, change: "resume" }),
    },
    end: {
      title: "End the campaign?",
      cta: "End campaign",
      color: "red",
      body: (
        <Text size="sm">
          Pieces not yet with the printer are cancelled and their reserved budget released
          {campaign.responseMode === "gift_claim" ? "; gifts their recipients have already claimed are still sent" : ""}
          . An ended campaign cannot be resumed; its results stay.
        </Text>
      ),
      run: () => change.mutate({ workspaceId, campaignId: campaign.id, change: "end" }),
    },
    budget: {
      title: asks ? "Ask for a budget" : "Change the budget",
      cta: asks ? "Ask for this budget" : "Set budget",
      body: (
        <Stack gap="xs">
          {asks && askNote}
          <Text size="sm">
            Spent {formatCents(campaign.spentCents)}, held for pieces on their way {formatCents(campaign.reservedCents)}
            ; headroom now {formatCents(Math.max(0, headroom))}.
          </Text>
          <NumberInput
            label="New budget"
            prefix="$"
            min={(campaign.spentCents + campaign.reservedCents) / 100}
            decimalScale={2}
            thousandSeparator=","
            value={budget}
            onChange={setBudget}
            data-autofocus
          />
        </Stack>
      ),
      run: () =>
        (asks ? requestBudget : setBudgetMutation).mutate({
          workspaceId,
          campaignId: campaign.id,
          budgetCents: Math.round(Number(budget) * 100),
        }),
    },
  };
  const open = pending ? confirmations[pending] : null;

  return (
    <>
      <Group gap="xs">
        {campaign.status !== "draft" && (
          <Button variant="light" component={Link} href={`/w/${workspaceId}/campaigns/${campaign.id}/results`}>
            Results
          </Button>
        )}
        {campaign.status === "draft" && prepare.allowed && (
          <>
            <Button variant="default" component={Link} href={`/w/${workspaceId}/campaigns/${campaign.id}/edit`}>
              Edit
            </Button>
            <Tooltip
              label={blockers?.length ? `Not ready: ${blockers.join("; ")}` : "Checking readiness…"}
              disabled={blockers?.length === 0}
              multiline
              w={280}
            >
              {/* A disabled button gets no pointer events, so the wrapper carries the reason for mouse and keyboard. */}
              <span
                role="note"
                tabIndex={blockers?.length === 0 ? -1 : 0}
                aria-label={blockers?.length ? `Go live is unavailable: ${blockers.join("; ")}` : undefined}
              >
                <Button onClick={() => setPending("goLive")} disabled={blockers === undefined || blockers.length > 0}>
                  {asks ? "Ask for go-live…" : "Go live…"}
                </Button>
              </span>
            </Tooltip>
          </>
        )}
        {campaign.status === "live" && request.allowed && (
          <RoleNote can={decide}>
            <Button variant="default" onClick={() => setPending("pause")} disabled={!decide.allowed}>
              Pause…
            </Button>
          </RoleNote>
        )}
        {campaign.status === "paused" && request.allowed && (
          <Button onClick={() => setPending("resume")}>{asks ? "Ask to resume…" : "Resume…"}</Button>
        )}
        {campaign.status !== "ended" && request.allowed && (
          <Button variant="default" onClick={() => setPending("budget")}>
            {asks ? "Ask for budget…" : "Budget…"}
          </Button>
        )}
        {(campaign.status === "live" || campaign.status === "paused") && request.allowed && (
          <RoleNote can={decide}>
            <Button variant="light" color="red" onClick={() => setPending("end")} disabled={!decide.allowed}>
              End…
            </Button>
          </RoleNote>
        )}
      </Group>
      <Modal opened={open !== null} onClose={() => setPending(null)} title={open?.title}>
        {open && (
          <Stack>
            {open.body}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              {/* Going live waits until the dialog says who enters: the person confirms what they read. */}
              <Button color={open.color} loading={busy || (pending === "goLive" && entry.isPending)} onClick={open.run}>
                {open.cta}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
