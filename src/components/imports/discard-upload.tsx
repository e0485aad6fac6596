"use client";

import { Button, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconTrash } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { formatCount } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

/**
 * Discard a file that was uploaded and never imported, after a confirmation. The server refuses an
 * import that has started (its report is the record of what it wrote); the refusal is shown as is.
 */
export function DiscardUploadButton({
  workspaceId,
  importId,
  fileName,
  rows,
  onDiscarded,
  size = "xs",
}: {
  workspaceId: string;
  importId: string;
  fileName: string;
  rows: number;
  onDiscarded?: () => void;
  size?: "xs" | "sm";
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const discard = useMutation(
    trpc.contactImport.discard.mutationOptions({
      onSuccess: async () => {
        setOpened(false);
        notifications.show({
          color: "teal",
          title: "Upload discarded",
          message: `${fileName} was deleted; no contact was written from it.`,
        });
        onDiscarded?.();
        await queryClient.invalidateQueries({ queryKey: trpc.contactImport.pathKey() });
      },
      onError: (err) => {
        setOpened(false);
        notifications.show({ color: "red", title: "Not discarded", message: err.message });
      },
    }),
  );
  return (
    <>
      <IfCan action="prepare">
        <Button
          size={size}
          variant="light"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={() => setOpened(true)}
          aria-label={`Discard ${fileName}`}
        >
          Discard
        </Button>
      </IfCan>
      <ConfirmModal
        opened={opened}
        onClose={() => setOpened(false)}
        title="Discard this upload?"
        confirmLabel="Discard upload"
        color="red"
        loading={discard.isPending}
        onConfirm={() => discard.mutate({ workspaceId, importId })}
      >
        <Text size="sm">
          <b>{fileName}</b> ({formatCount(rows, "row")}) was uploaded but never imported: no contact was written from
          it. Discarding deletes the uploaded file. To import it later, upload it again.
        </Text>
      </ConfirmModal>
    </>
  );
}
