"use client";

import { Alert, Button, Checkbox, List, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { IconTrash } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmModal } from "@/components/ui/confirm-modal";
import { useTRPC } from "@/trpc/react";
import { RoleNote, useCan } from "@/components/access/role";

/**
 * The contact page's Delete: a confirmation saying what goes (the person) and what stays (pieces
 * already printed, as the campaign's record), with the optional suppression. The same service as
 * the agents' contacts_delete; a refusal (a piece at the printer) is shown in the dialog.
 */
export function ContactDeleteButton({
  workspaceId,
  contactId,
  name,
}: {
  workspaceId: string;
  contactId: string;
  name: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const administer = useCan("administer");
  const [suppress, setSuppress] = useState(false);
  const remove = useMutation(
    trpc.contact.delete.mutationOptions({
      onSuccess: (r) => {
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        notifications.show({
          color: "teal",
          message: `${name} was deleted.${r.piecesKept ? ` ${r.piecesKept} printed piece${r.piecesKept === 1 ? " stays" : "s stay"} as “Deleted contact”.` : ""}${r.suppressed.length ? ` Their ${r.suppressed.join(" and ")} ${r.suppressed.length === 1 ? "is" : "are"} suppressed.` : ""}`,
        });
        router.push(`/w/${workspaceId}/contacts`);
      },
    }),
  );
  return (
    <>
      <RoleNote can={administer}>
        <Button
          variant="default"
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={() => setOpen(true)}
          disabled={!administer.allowed}
        >
          Delete…
        </Button>
      </RoleNote>
      <ConfirmModal
        opened={open}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
        title={`Delete ${name}?`}
        confirmLabel="Delete contact"
        color="red"
        loading={remove.isPending}
        onConfirm={() => remove.mutate({ workspaceId, contactId, suppress })}
      >
        <Text size="sm">This removes the person from this workspace:</Text>
        <List size="sm">
          <List.Item>their name, email, phone, address, custom fields and field history;</List.Item>
          <List.Item>their audience memberships, drafts and mailability results;</List.Item>
          <List.Item>pieces not yet printed are cancelled, and entries still waiting end.</List.Item>
        </List>
        <Text size="sm">
          Pieces already printed stay as the campaign’s record: when they were printed and mailed, their cost, tracking
          and responses, and their account for results and lift; not the person’s name or address. A contact synced from
          a CRM comes back as a new contact at the next full sync, unless it is suppressed here or deleted in the CRM.
        </Text>
        <Checkbox
          label="Also suppress their email and address, so a later import or CRM sync never gets them mailed again"
          checked={suppress}
          onChange={(e) => setSuppress(e.currentTarget.checked)}
        />
        {remove.isError && (
          <Alert color="red" title="Not deleted">
            {remove.error.message}
          </Alert>
        )}
      </ConfirmModal>
    </>
  );
}
