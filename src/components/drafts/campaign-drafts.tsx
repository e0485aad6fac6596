"use client";

import {
  Alert,
  Badge,
  Button,
  Card,
  Chip,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconAlertTriangle, IconInfoCircle, IconRefresh } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { JobProgress } from "@/components/jobs/job-progress";
import { formatNumber } from "@/components/ui/format";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { DraftModal } from "./draft-modal";
import { useCan } from "@/components/access/role";

type Filter = "all" | "overflowing" | "missing_data" | "unmailable" | "edited";
const PAGE = 12;

/** A campaign's drafts: generate them (a job with a progress bar), filter, page through thumbnails, open one to rewrite it. */
export function CampaignDrafts({
  workspaceId,
  campaignId,
  isDraft,
}: {
  workspaceId: string;
  campaignId: string;
  isDraft: boolean;
}) {
  const trpc = useTRPC();
  const prepare = useCan("prepare");
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>("all");
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [open, setOpen] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const summary = useQuery(trpc.draft.summary.queryOptions({ workspaceId, campaignId }));
  const cursor = cursors[cursors.length - 1];
  const list = useQuery(
    trpc.draft.list.queryOptions({
      workspaceId,
      campaignId,
      filter: filter === "all" ? null : filter,
      cursor,
      take: PAGE,
    }),
  );
  // New drafts change the campaign too: its readiness, and its draft version, which going live
  // sends back so the server can tell the person approved what will print.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.draft.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.campaign.pathKey() }),
    ]);
  const generate = useMutation(
    trpc.draft.generate.mutationOptions({
      onSuccess: (r) => setJobId(r.jobId),
      onError: (e) => notifications.show({ color: "red", title: "Drafts not generated", message: e.message }),
    }),
  );
  const s = summary.data;
  const runningJob =
    jobId ?? (s?.job && (s.job.status === "queued" || s.job.status === "running") ? s.job.jobId : null);
  const setFilterAndReset = (f: Filter) => {
    setFilter(f);
    setCursors([null]);
  };
  const count = (n: number | undefined) => (n === undefined ? "" : ` (${formatNumber(n)})`);

  return (
    <Paper withBorder p="md" id="drafts">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h4">
              Drafts
            </Title>
            <Text size="sm" c="dimmed">
              One piece per recipient, merge fields filled and with their own response link: what is approved here is
              what prints
              {s?.specimenMarked ? ", without the free plan's specimen mark" : ""}.
            </Text>
          </div>
          {isDraft && prepare.allowed && (
            <Button
              leftSection={<IconRefresh size={16} />}
              onClick={() => generate.mutate({ workspaceId, campaignId })}
              loading={generate.isPending}
              disabled={Boolean(runningJob)}
            >
              {s && s.total > 0 ? "Generate again" : "Generate drafts"}
            </Button>
          )}
        </Group>
        {runningJob && (
          <JobProgress
            key={runningJob}
            workspaceId={workspaceId}
            jobId={runningJob}
            onFinished={(job) => {
              setJobId(null);
              refresh();
              if (job.status === "succeeded")
                notifications.show({
                  color: "green",
                  title: "Drafts ready",
                  message: `${formatNumber(job.progress.done)} drafts rendered.`,
                });
            }}
          />
        )}
        {s && s.outOfDate > 0 && !runningJob && (
          <Alert color="orange" icon={<IconInfoCircle size={18} />} p="xs">
            {s.inputsChanged > 0 && (
              <>
                {formatNumber(s.inputsChanged)} draft{s.inputsChanged === 1 ? " was" : "s were"} rendered before the
                campaign, its design or the brand kit last changed.
                {isDraft ? " Generate again to bring them up to date." : ""}
              </>
            )}
            {s.inputsChanged > 0 && s.recipientChangedSentence ? " " : ""}
            {s.recipientChangedSentence}
          </Alert>
        )}
        {s?.specimenSentence && !runningJob && (
          <Alert color="blue" icon={<IconInfoCircle size={18} />} p="xs">
            {s.specimenSentence}
          </Alert>
        )}
        {s?.mailabilitySentence && !runningJob && (
          <Alert
            color="orange"
            icon={<IconAlertTriangle size={18} />}
            p="xs"
            title={`${formatNumber(s.unmailable)} recipient${s.unmailable === 1 ? "" : "s"} cannot be mailed`}
          >
            {s.mailabilitySentence}
            {isDraft
              ? " A corrected contact counts at once; generate the drafts again so the piece prints the corrected address."
              : ""}
          </Alert>
        )}
        {s && s.total > 0 && (
          <Chip.Group multiple={false} value={filter} onChange={(f) => setFilterAndReset(f as Filter)}>
            <Group gap="xs" role="radiogroup" aria-label="Show drafts">
              {(
                [
                  ["all", "All", s.total],
                  ["overflowing", "Overflows", s.overflowing],
                  ["missing_data", "Missing data", s.missingData],
                  ["unmailable", "Cannot be mailed", s.unmailable],
                  ["edited", "Edited", s.edited],
                ] as const
              ).map(([value, label, n]) => (
                <Chip key={value} value={value} size="sm" variant="outline">
                  {`${label}${count(n)}`}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
        <ListStates
          query={list}
          items={list.data?.drafts}
          loading={
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }}>
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} h={180} />
              ))}
            </SimpleGrid>
          }
          empty={
            filter === "all" ? (
              <EmptyState title="No drafts yet">
                {isDraft
                  ? "Generate drafts to render one piece for each contact of the audience, then look through them before going live."
                  : "Each recipient's piece is rendered when they enter the campaign."}
              </EmptyState>
            ) : (
              <Text size="sm" c="dimmed">
                No draft matches this filter.
              </Text>
            )
          }
        >
          {(drafts) => (
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }}>
              {drafts.map((d) => (
                <Card
                  key={d.id}
                  withBorder
                  padding="xs"
                  component="button"
                  type="button"
                  onClick={() => setOpen(d.id)}
                  style={{ textAlign: "left", cursor: "pointer" }}
                  aria-label={`Open the draft for ${d.contactName}`}
                >
                  <Card.Section bg="gray.1" p={6}>
                    <Image
                      src={`/api/drafts/${d.id}/proof?workspaceId=${workspaceId}&format=png&width=360&page=1&v=${new Date(d.renderedAt).getTime()}`}
                      alt={`Front of the piece for ${d.contactName}`}
                      h={120}
                      fit="contain"
                      loading="lazy"
                    />
                  </Card.Section>
                  <Text size="sm" fw={600} mt={6} truncate>
                    {d.contactName || "(no name)"}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {d.company ?? "No account"}
                  </Text>
                  <Group gap={4} mt={4}>
                    {d.edited && (
                      <Badge size="xs" color="grape">
                        Edited
                      </Badge>
                    )}
                    {d.overflowing && (
                      <Badge size="xs" color="red">
                        Overflows
                      </Badge>
                    )}
                    {d.missingData && (
                      <Badge size="xs" color="yellow">
                        Missing data
                      </Badge>
                    )}
                    {!d.mailable && (
                      <Badge size="xs" color="orange" variant="light" title={d.unmailableDetail ?? undefined}>
                        Cannot be mailed
                      </Badge>
                    )}
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          )}
        </ListStates>
        {(cursors.length > 1 || list.data?.nextCursor) && (
          <Group justify="space-between">
            <Button
              variant="default"
              size="xs"
              disabled={cursors.length === 1}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Previous
            </Button>
            <Text size="xs" c="dimmed">
              Page {cursors.length}
            </Text>
            <Button
              variant="default"
              size="xs"
              disabled={!list.data?.nextCursor}
              onClick={() => setCursors((c) => [...c, list.data!.nextCursor])}
            >
              Next
            </Button>
          </Group>
        )}
      </Stack>
      <DraftModal workspaceId={workspaceId} draftId={open} onClose={() => setOpen(null)} />
    </Paper>
  );
}
