"use client";

import { Badge, Button, Card, Group, Image, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, ListStates } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

const FORMAT_LABEL: Record<string, string> = {
  postcard: "Postcard",
  letter: "Letter",
  handwritten: "Handwritten note",
  gift: "Gift",
};

/** The workspace's designs as cards with a rendered front, newest first. */
export function DesignsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.design.list.infiniteQueryOptions(
      { workspaceId, take: 24 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const designs = query.data?.pages.flatMap((p) => p.designs);
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">
            Designs
          </Title>
          <Text c="dimmed" size="sm">
            Layouts for postcards, letters, handwritten notes and gift cards, in your brand kit&apos;s look. A campaign
            prints one design; each recipient gets their own draft.
          </Text>
        </div>
        <IfCan action="prepare">
          <Button component={Link} href={`/w/${workspaceId}/designs/new`} leftSection={<IconPlus size={16} />}>
            New design
          </Button>
        </IfCan>
      </Group>
      <ListStates
        query={query}
        items={designs}
        loading={
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={260} />
            ))}
          </SimpleGrid>
        }
        empty={
          <EmptyState
            title="No designs yet"
            action={
              <IfCan action="prepare">
                <Button component={Link} href={`/w/${workspaceId}/designs/new`} mt="sm">
                  Create the first design
                </Button>
              </IfCan>
            }
          >
            Pick a format and a layout, write the text with merge fields such as {"{{firstName|there}}"}, and see it for
            any contact as it will print.
          </EmptyState>
        }
      >
        {(items) => (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
              {items.map((d) => (
                <Card
                  key={d.id}
                  withBorder
                  padding="sm"
                  component={Link}
                  href={`/w/${workspaceId}/designs/${d.id}`}
                  aria-label={`${d.name}: ${FORMAT_LABEL[d.format]} ${d.size}, ${d.layout} layout`}
                >
                  <Card.Section bg="gray.1" p="sm">
                    <Image
                      src={`/api/designs/${d.id}/proof?workspaceId=${workspaceId}&format=png&width=480&v=${new Date(d.updatedAt).getTime()}`}
                      alt={`Front of “${d.name}” for a sample recipient`}
                      h={170}
                      fit="contain"
                    />
                  </Card.Section>
                  <Stack gap={4} mt="sm">
                    <Text fw={600} truncate title={d.name}>
                      {d.name}
                    </Text>
                    <Group gap={6}>
                      <Badge variant="light">{FORMAT_LABEL[d.format]}</Badge>
                      <Badge variant="outline" color="gray">
                        {d.size.replace("_", " ")}
                      </Badge>
                      <Badge variant="outline" color="gray">
                        {d.layout}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {d.campaigns === 0
                        ? "Not used by a campaign yet"
                        : `Printed by ${d.campaigns} campaign${d.campaigns === 1 ? "" : "s"}`}
                    </Text>
                  </Stack>
                </Card>
              ))}
            </SimpleGrid>
            {query.hasNextPage && (
              <Group justify="center">
                <Button variant="default" onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage}>
                  Show more
                </Button>
              </Group>
            )}
          </>
        )}
      </ListStates>
    </Stack>
  );
}
