"use client";

import { Button, Group, Modal, Stack } from "@mantine/core";
import type { ReactNode } from "react";

/** A question before a consequential click: what will happen, Cancel, and the action itself. */
export function ConfirmModal(p: {
  opened: boolean;
  title?: ReactNode;
  confirmLabel?: ReactNode;
  color?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal opened={p.opened} onClose={p.onClose} title={p.title}>
      <Stack>
        {p.children}
        <Group justify="flex-end">
          <Button variant="default" onClick={p.onClose}>
            Cancel
          </Button>
          <Button color={p.color} loading={p.loading} onClick={p.onConfirm}>
            {p.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
