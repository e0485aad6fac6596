"use client";

import { Button, Group, Paper, Select, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { RoleNote, useCan } from "@/components/access/role";

/**
 * "Send to one more person" on a live campaign: pick a contact of its audience by name or email;
 * they enter as any entry does (every check and the budget still apply), once.
 */
export function SendToOne({
  workspaceId,
  campaignId,
  audienceId,
}: {
  workspaceId: string;
  campaignId: string;
  audienceId: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const decide = useCan("decide");
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 250);
  const [contactId, setContactId] = useState<string | null>(null);
  const found = useQuery(
    trpc.contact.list.queryOptions(
      { workspaceId, audienceId, search: debounced || undefined, take: 20 },
      { placeholderData: (prev) => prev },
    ),
  );
  const send = useMutation(
    trpc.campaign.sendTo.mutationOptions({
      onSuccess: ([result]) => {
        notifications.show({
          color: result.entered ? "teal" : "gray",
          message: result.entered
            ? "Sent: they entered the campaign and go through its checks now."
            : "They had already entered this campaign; nothing new was sent.",
        });
        setContactId(null);
        void queryClient.invalidateQueries({ queryKey: trpc.campaign.get.queryKey({ workspaceId, campaignId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.campaign.events.pathKey() });
      },
      onError: (error) => notifications.show({ color: "red", message: error.message }),
    }),
  );
  const options = (found.data?.contacts ?? []).map((c) => ({
    value: c.id,
    label: `${`${c.firstName} ${c.lastName}`.trim() || "(no name)"}${c.email ? ` · ${c.email}` : ""}`,
  }));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="send-to-one-title">
      <Title order={2} size="h4" mb={4} id="send-to-one-title">
        Send to one more person
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Someone in the audience who has not entered yet. The holdout, suppression, address, frequency, review and budget
        checks still apply.
      </Text>
      <Group align="flex-end">
        <Select
          label="Contact"
          placeholder="Search by name or email"
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={options}
          value={contactId}
          onChange={setContactId}
          nothingFoundMessage={found.isFetching ? "Searching…" : "No contact of the audience matches"}
          filter={({ options: o }) => o}
          w={{ base: "100%", sm: 380 }}
        />
        <RoleNote can={decide}>
          <Button
            disabled={!contactId || !decide.allowed}
            loading={send.isPending}
            onClick={() => contactId && send.mutate({ workspaceId, campaignId, contactIds: [contactId] })}
          >
            Send
          </Button>
        </RoleNote>
      </Group>
    </Paper>
  );
}
