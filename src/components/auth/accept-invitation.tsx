"use client";

import { Alert, Button, Stack } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/trpc/react";

/** A signed-in person accepts the invitation with a press (a mail scanner opening the link uses nothing up). */
export function AcceptInvitation({ token, workspaceName }: { token: string; workspaceName: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const accept = useMutation(
    trpc.team.accept.mutationOptions({
      onSuccess(joined) {
        router.replace(`/w/${joined.workspaceId}`);
        router.refresh();
      },
    }),
  );
  return (
    <Stack>
      {accept.error && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not join" role="alert">
          {accept.error.message}
        </Alert>
      )}
      <Button onClick={() => accept.mutate({ token })} loading={accept.isPending} fullWidth>
        Join {workspaceName}
      </Button>
    </Stack>
  );
}
