"use client";

import { Alert, Button, Center, Paper, Stack, Text, Title } from "@mantine/core";
import { IconAlertTriangle, IconMoodEmpty } from "@tabler/icons-react";
import Link from "next/link";
import type { ReactNode } from "react";

/** A failure while loading a page, with a way to try again. */
export function PageError({ onRetry, message }: { onRetry?: () => void; message?: string }) {
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle size={20} />}
      title="This page could not be loaded"
      role="alert"
      maw={640}
    >
      <Text size="sm" mb="sm">
        {message ?? "Something went wrong on our side. Nothing was changed."}
      </Text>
      {onRetry && (
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}

export function PageNotFound() {
  return (
    <Center mih={320}>
      <Stack align="center" gap="xs">
        <Title order={1} size="h3">
          Not found
        </Title>
        <Text c="dimmed">There is nothing here, or you do not have access to it.</Text>
        <Button component={Link} href="/w" variant="light" mt="sm">
          Go to your workspaces
        </Button>
      </Stack>
    </Center>
  );
}

/** What a list shows when it has nothing yet: what goes here and how to add the first one. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder p="xl" ta="center">
      <Stack align="center" gap="xs">
        <IconMoodEmpty size={32} stroke={1.4} aria-hidden color="var(--mantine-color-gray-6)" />
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text c="dimmed" size="sm" maw={480}>
          {children}
        </Text>
        {action}
      </Stack>
    </Paper>
  );
}

/** The part of a query a list needs to show its state. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: { message: string } | null;
  refetch: () => unknown;
}

/**
 * A list read from the server, in the state it is in: `loading` while it loads, the error with a
 * way to try again, `empty` when it has no items, otherwise `children` given the items.
 */
export function ListStates<T>(props: {
  query: ListQuery;
  items: T[] | undefined;
  loading: ReactNode;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const { query, items } = props;
  if (query.isPending) return props.loading;
  if (query.isError) return <PageError message={query.error?.message} onRetry={() => query.refetch()} />;
  if (!items?.length) return props.empty;
  return props.children(items);
}
