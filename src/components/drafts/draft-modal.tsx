"use client";

import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { RenderIssueAlerts } from "@/components/designs/render-issues";
import { PageError } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { useCan } from "@/components/access/role";

/** One recipient's draft: its pages, what did not fit, and a form to write their own copy. */
export function DraftModal({
  workspaceId,
  draftId,
  onClose,
}: {
  workspaceId: string;
  draftId: string | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const prepare = useCan("prepare");
  const queryClient = useQueryClient();
  const draft = useQuery({
    ...trpc.draft.get.queryOptions({ workspaceId, draftId: draftId ?? "" }),
    enabled: Boolean(draftId),
  });
  const form = useForm({ initialValues: { headline: "", body: "", signOff: "" } });
  const d = draft.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per draft and render, not again on each refetch, which would erase what the person is typing.
  useEffect(() => {
    if (d)
      form.setValues({
        headline: d.overrides?.headline ?? d.blocks.headline,
        body: d.overrides?.body ?? d.blocks.body,
        signOff: d.overrides?.signOff ?? d.blocks.signOff,
      });
  }, [d?.id, d?.renderedAt]);
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: trpc.draft.pathKey() });
  };
  const update = useMutation(
    trpc.draft.update.mutationOptions({
      onSuccess: (r) => {
        refresh();
        notifications.show({
          color: "green",
          title: r.edited ? "Draft rewritten" : "Back to the campaign's copy",
          message: `${r.contactName}'s draft was rendered again${r.overflowing ? ", but some text still does not fit" : ""}.`,
        });
      },
      onError: (e) => notifications.show({ color: "red", title: "Not saved", message: e.message }),
    }),
  );
  const save = form.onSubmit((v) => {
    if (!d) return;
    // Only blocks that differ from what the campaign would print become this recipient's own copy.
    const blocks = Object.fromEntries(
      (["headline", "body", "signOff"] as const)
        .filter((k) => v[k] !== (d.overrides?.[k] ?? d.blocks[k]) || d.overrides?.[k] !== undefined)
        .map((k) => [k, v[k]]),
    );
    if (Object.keys(blocks).length === 0) {
      notifications.show({ title: "Nothing changed", message: "Edit the text first." });
      return;
    }
    update.mutate({ workspaceId, draftId: d.id, blocks });
  });
  return (
    <Modal
      opened={Boolean(draftId)}
      onClose={onClose}
      size="xl"
      title={d ? `Draft for ${d.contactName}${d.company ? ` · ${d.company}` : ""}` : "Draft"}
    >
      {draft.isError ? (
        <PageError message={draft.error.message} onRetry={() => draft.refetch()} />
      ) : !d ? (
        <Skeleton h={400} />
      ) : (
        <Stack gap="md">
          <Group gap="xs">
            {d.edited && <Badge color="grape">Edited for this recipient</Badge>}
            {d.overflowing && <Badge color="red">Text does not fit</Badge>}
            {d.missingData && <Badge color="yellow">Missing data</Badge>}
            {d.specimen && <Badge color="gray">Specimen — not mailed</Badge>}
            {d.outOfDate && <Badge color="orange">Out of date</Badge>}
            {!d.mailable && (
              <Badge color="orange" variant="light">
                Cannot be mailed
              </Badge>
            )}
          </Group>
          {!d.mailable && (
            <Alert
              color="orange"
              icon={<IconAlertTriangle size={18} />}
              p="xs"
              title={`${d.contactName || "This recipient"} cannot be mailed`}
            >
              {d.unmailableDetail
                ? `${d.unmailableDetail.charAt(0).toUpperCase()}${d.unmailableDetail.slice(1)}`
                : "The mailability audit's checks stop this piece"}
              : the piece is skipped when they enter.{" "}
              {d.editable
                ? "Correct the contact, then generate the drafts again so the piece prints the corrected address."
                : ""}
            </Alert>
          )}
          <RenderIssueAlerts issues={d.issues} />
          <SimpleGrid cols={{ base: 1, sm: d.pages.length > 1 ? 2 : 1 }}>
            {d.pages.map((p) => (
              <figure key={p.label} style={{ margin: 0 }}>
                <Image
                  src={p.src}
                  alt={`${p.label} of the piece for ${d.contactName}`}
                  radius="sm"
                  style={{ border: "1px solid var(--mantine-color-gray-3)" }}
                />
                <Text component="figcaption" size="xs" c="dimmed" mt={4}>
                  {p.label}
                </Text>
              </figure>
            ))}
          </SimpleGrid>
          <Text size="sm">
            Response link:{" "}
            <Anchor href={d.responseLink} target="_blank">
              {d.responseLink.replace(/^https?:\/\//, "")}
            </Anchor>{" "}
            ·{" "}
            <Anchor href={`/api/drafts/${d.id}/proof?workspaceId=${workspaceId}`} target="_blank">
              Print file (PDF, {Math.round(d.pdfBytes / 1024)} KB)
            </Anchor>
          </Text>
          {d.editable && prepare.allowed ? (
            <form onSubmit={save}>
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  Rewrite this recipient&apos;s copy. It is kept beside the campaign&apos;s template (generating drafts
                  again keeps it) and the go-live card counts it.
                </Text>
                <TextInput label="Headline" {...form.getInputProps("headline")} />
                <Textarea label="Message" autosize minRows={4} {...form.getInputProps("body")} />
                <TextInput label="Sign-off" {...form.getInputProps("signOff")} />
                <Group justify="space-between">
                  {d.edited ? (
                    <Button
                      variant="subtle"
                      color="gray"
                      onClick={() =>
                        update.mutate({ workspaceId, draftId: d.id, blocks: { headline: "", body: "", signOff: "" } })
                      }
                      loading={update.isPending}
                    >
                      Use the campaign&apos;s copy again
                    </Button>
                  ) : (
                    <span />
                  )}
                  <Button type="submit" loading={update.isPending}>
                    Save this recipient&apos;s copy
                  </Button>
                </Group>
              </Stack>
            </form>
          ) : (
            <Alert color="gray" variant="light">
              The campaign is live: its drafts were approved when it went live and cannot change.
            </Alert>
          )}
        </Stack>
      )}
    </Modal>
  );
}
