"use client";

import { Alert, Anchor, Button, Stack } from "@mantine/core";
import { IconAlertCircle, IconCircleCheck } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/react";

/**
 * Verifies the address with the token from the link. A press of the button, not the page's load,
 * uses the link: mail scanners that open links in advance cannot use it up.
 */
export function VerifyEmailForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions());
  if (verify.data)
    return (
      <Stack>
        <Alert color="green" icon={<IconCircleCheck size={18} />} title="Your address is verified" role="status">
          {verify.data.email} is confirmed. You can now invite your team.
        </Alert>
        <Button component={Link} href="/w" fullWidth>
          Open your workspace
        </Button>
      </Stack>
    );
  return (
    <Stack>
      {verify.error && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not verify" role="alert">
          {verify.error.message}
        </Alert>
      )}
      <Button onClick={() => verify.mutate({ token })} loading={verify.isPending} fullWidth>
        Verify my address
      </Button>
      <Anchor component={Link} href="/w" size="sm" ta="center">
        Go to your workspace
      </Anchor>
    </Stack>
  );
}
