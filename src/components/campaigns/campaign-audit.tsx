"use client";

import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import Link from "next/link";
import { AuditRunPanel } from "@/components/audits/audit-run-panel";
import { AuditStatusBadge } from "@/components/audits/audit-status-badge";
import { JobProgress } from "@/components/jobs/job-progress";
import { formatDateTime, formatNumber } from "@/components/ui/format";
import { formatPlural } from "@/server/ground/render/format-words";
import { useTRPC } from "@/trpc/react";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** A campaign's own mailability audit (its audience, judged for its format and printer): the newest run, and running it again. */
export function CampaignAudit({
  workspaceId,
  campaignId,
  hasAudience,
  format,
}: {
  workspaceId: string;
  campaignId: string;
  hasAudience: boolean;
  /** The campaign's format: an audience's audit that counts for it is read as mailable in it. */
  format: "postcard" | "letter" | "handwritten" | "gift";
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const audits = useQuery({
    ...trpc.mailability.list.queryOptions({ workspaceId, campaignId, take: 1 }),
    refetchInterval: (q) =>
      q.state.data?.audits.some((a) => a.status === "queued" || a.status === "running") ? 2000 : false,
  });
  const newest = audits.data?.audits[0];
  const running = newest?.status === "queued" || newest?.status === "running";
  // The audit that answers for the campaign: its own newest run, or its audience's own audit when that judged alike.
  const answering = useQuery(trpc.mailability.forCampaign.queryOptions({ workspaceId, campaignId }));
  const counted = answering.data?.audit ?? null;
  // The campaign's newest run when it is newer (running, just finished or failed); the answering audit otherwise.
  const latest = newest && (!counted || newest.createdAt > counted.createdAt) ? newest : counted;
  const isCounted = !!latest && latest.auditId === counted?.auditId;
  // When a run starts or ends, what depends on it is read again: the readiness list and the campaign's page.
  const seen = useRef<string | null>(null);
  const state = newest ? `${newest.auditId}:${newest.status}` : "";
  useEffect(() => {
    if (seen.current !== null && seen.current !== state) {
      void queryClient.invalidateQueries({ queryKey: trpc.campaign.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.mailability.forCampaign.pathKey() });
    }
    seen.current = state;
  }, [state, queryClient, trpc]);
  return (
    <Paper withBorder p="md" id="audit">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Mailability audit
        </Title>
        {audits.isPending ? (
          <Skeleton h={40} />
        ) : audits.isError ? (
          <Text size="sm" c="red.8">
            The campaign's audits could not be read: {audits.error.message}
          </Text>
        ) : latest ? (
          <>
            <Group gap="xs">
              <AuditStatusBadge status={latest.status} />
              <Text size="sm">
                <Anchor component={Link} href={`/w/${workspaceId}/audits/${latest.auditId}`}>
                  Audit of {formatDateTime(latest.createdAt)}
                </Anchor>
                {latest.status === "succeeded"
                  ? `: ${pct(latest.mailableShare)} of ${formatNumber(latest.contacts)} contacts mailable as ${formatPlural(latest.format ?? format)}, ${formatNumber(latest.fixable)} fixable, ${formatNumber(latest.unmailable)} unmailable; ${formatNumber(latest.accountsWithMailableContact)} of ${formatNumber(latest.accounts)} accounts reachable.`
                  : "."}
              </Text>
            </Group>
            {isCounted && !latest.campaignId && (
              <Text size="sm" c="dimmed">
                The audience&apos;s own audit: it judged this campaign&apos;s format and address block alike, so it
                counts for this campaign.
              </Text>
            )}
            {isCounted && answering.data?.stale && (
              <Text size="sm" c="orange.9">
                Out of date: {answering.data.stale} Audit again before going live.
              </Text>
            )}
            {running && latest.jobId && (
              <JobProgress
                workspaceId={workspaceId}
                jobId={latest.jobId}
                onFinished={() => void queryClient.invalidateQueries({ queryKey: trpc.mailability.pathKey() })}
              />
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Not audited for this campaign yet: the audit judges its audience for this format&apos;s address block and
            its printer&apos;s countries.
          </Text>
        )}
        {hasAudience ? (
          <AuditRunPanel
            workspaceId={workspaceId}
            campaignId={campaignId}
            label={counted ? "Audit again" : "Audit this campaign's audience"}
            stayOnPage
          />
        ) : (
          <Text size="sm" c="dimmed">
            Choose an audience for the campaign first.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
