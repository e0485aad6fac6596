"use client";

import { Alert, Button, Checkbox, Group, Skeleton, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconPlayerPlay } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatCents, formatCount, formatNumber } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { useCan } from "@/components/access/role";

const cents = (n: number) => (n === 0 ? "free" : n < 100 ? `${n}¢` : formatCents(n));

/**
 * Runs an audit of an audience (or a campaign's audience), with or without address verification:
 * the verifier, its price per verification and the estimate for this audience are shown before
 * the person chooses.
 */
export function AuditRunPanel({
  workspaceId,
  audienceId,
  campaignId,
  label = "Run the audit",
  stayOnPage = false,
}: {
  workspaceId: string;
  audienceId?: string | null;
  campaignId?: string | null;
  label?: string;
  /** Keep the person where they are (a campaign's page shows the run's progress itself) instead of opening the audit's report. */
  stayOnPage?: boolean;
}) {
  const trpc = useTRPC();
  const prepare = useCan("prepare");
  const router = useRouter();
  const queryClient = useQueryClient();
  const [verify, setVerify] = useState(false);
  const target = { workspaceId, audienceId: audienceId ?? null, campaignId: campaignId ?? null };
  const estimate = useQuery({
    ...trpc.mailability.estimate.queryOptions(target),
    enabled: !!(audienceId || campaignId),
  });
  const run = useMutation(
    trpc.mailability.run.mutationOptions({
      onSuccess: async (audit) => {
        await queryClient.invalidateQueries({ queryKey: trpc.mailability.pathKey() });
        if (stayOnPage)
          notifications.show({ color: "teal", message: "The audit has started; its progress and result appear here." });
        else router.push(`/w/${workspaceId}/audits/${audit.auditId}`);
      },
      onError: (err) => notifications.show({ color: "red", title: "The audit did not start", message: err.message }),
    }),
  );
  const e = estimate.data;

  return (
    <Stack gap="sm">
      {estimate.isPending ? (
        <Skeleton h={48} />
      ) : estimate.isError ? (
        <Alert color="red" title="The verification estimate could not be read">
          {estimate.error.message}
        </Alert>
      ) : e ? (
        <Checkbox
          checked={verify}
          onChange={(ev) => setVerify(ev.currentTarget.checked)}
          label={`Also verify each address with the ${e.verifier.label}`}
          description={
            e.verifier.mode !== "live"
              ? `${e.verifier.mode === "test" ? "A test key" : "The sandbox"} verifies nothing: it answers only test addresses, and every other address stays “not verified”. ${formatCount(e.addresses, "distinct address", "distinct addresses")}.`
              : e.verifier.domesticCents === 0 && e.verifier.internationalCents === 0
                ? `Free. ${formatCount(e.addresses, "distinct address", "distinct addresses")}; ${formatNumber(e.cachedAddresses)} already have an answer. Finds missing suites and undeliverable addresses.`
                : `${cents(e.verifier.domesticCents)} per US address, ${cents(e.verifier.internationalCents)} per international address. ${formatNumber(e.addressesToVerify)} of ${formatCount(e.addresses, "distinct address", "distinct addresses")} need a verification (the others have an answer from the last ${e.cacheDays} days): about ${formatCents(e.estimateCents)} for this run.`
          }
        />
      ) : null}
      <Group display={prepare.allowed ? undefined : "none"}>
        <Button
          leftSection={<IconPlayerPlay size={16} />}
          loading={run.isPending}
          disabled={!(audienceId || campaignId)}
          onClick={() => run.mutate({ ...target, verify })}
        >
          {verify && e && e.estimateCents > 0 ? `${label} (about ${formatCents(e.estimateCents)})` : label}
        </Button>
        <Text size="sm" c="dimmed">
          {e ? `${formatCount(e.contacts, "contact")} in ${e.audienceName}.` : null}
        </Text>
      </Group>
    </Stack>
  );
}
