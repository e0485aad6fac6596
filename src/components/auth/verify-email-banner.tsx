"use client";

import { Alert, Button, Group, Text } from "@mantine/core";
import { IconMailExclamation } from "@tabler/icons-react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

/** Says the person's address is not verified yet (so they cannot invite anyone) and offers a new link. */
export function VerifyEmailBanner() {
  const trpc = useTRPC();
  const status = useQuery(trpc.auth.emailStatus.queryOptions());
  const resend = useMutation(trpc.auth.resendVerification.mutationOptions());
  if (!status.data || status.data.verified) return null;
  return (
    <Alert
      color="yellow"
      icon={<IconMailExclamation size={18} />}
      title="Verify your email address"
      mx="md"
      mt="md"
      role="status"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {resend.data
            ? `We sent a new link to ${resend.data.email}. It works for 7 days.`
            : resend.error
              ? resend.error.message
              : `Open the link we emailed to ${status.data.email}. Until then you can use the workspace but not invite anyone.`}
        </Text>
        {!resend.data && (
          <Button size="xs" variant="light" color="yellow" loading={resend.isPending} onClick={() => resend.mutate()}>
            Send the link again
          </Button>
        )}
      </Group>
    </Alert>
  );
}
