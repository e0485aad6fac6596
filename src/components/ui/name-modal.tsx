"use client";

import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { type ReactNode, useState } from "react";
import type { z } from "zod";

/** A form rule from a schema: the schema's own sentence when it refuses the value, else null. */
export const schemaRule =
  (schema: z.ZodType) =>
  (value: unknown): string | null => {
    const parsed = schema.safeParse(value);
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? "This value is not accepted.");
  };

interface NameModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** The name the field starts with (the current one, for a rename). */
  initialValue?: string;
  label?: string;
  description?: ReactNode;
  placeholder?: string;
  submitLabel: ReactNode;
  /** What is wrong with a name before it is sent (empty, too long), as a sentence; null when nothing is. */
  validate: (name: string) => string | null;
  /** Saves the trimmed name; a refusal (a taken name, say) is shown on the field. */
  onSubmit: (name: string) => Promise<unknown>;
  /** Said above the field. */
  children?: ReactNode;
}

/**
 * A dialog that asks for one name (a new audience, a rename): a real form, so Enter in the field
 * saves as the button does, and what is wrong with the name shows on the field, the server's
 * refusal included.
 */
export function NameModal({ opened, onClose, title, ...form }: NameModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {/* The dialog mounts its content at each opening: the field starts from `initialValue`, with no old error. */}
      <NameForm {...form} onClose={onClose} />
    </Modal>
  );
}

function NameForm({
  initialValue = "",
  label = "Name",
  description,
  placeholder,
  submitLabel,
  validate,
  onSubmit,
  onClose,
  children,
}: Omit<NameModalProps, "opened" | "title">) {
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: { name: initialValue }, validate: { name: validate } });
  const submit = form.onSubmit(async ({ name }) => {
    setSaving(true);
    try {
      await onSubmit(name.trim());
    } catch (err) {
      form.setFieldError("name", (err as Error).message);
    } finally {
      setSaving(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {children}
        <TextInput
          label={label}
          description={description}
          placeholder={placeholder}
          required
          data-autofocus
          {...form.getInputProps("name")}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
