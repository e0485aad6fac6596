"use client";

import { Alert, Button, Group, Modal, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useTRPC } from "@/trpc/react";
import {
  blankContact,
  type ContactFormValues,
  contactPayload,
  fieldOfPointer,
  NEEDS_NAME_OR_EMAIL,
  parseCustomFields,
  validateContact,
} from "./contact-form-values";

export { formatCustomFields as formatCustom } from "./contact-form-values";

/** Add a contact, or edit one (`contactId`). Server errors land on their fields. */
export function ContactFormModal({
  workspaceId,
  opened,
  onClose,
  contactId,
  initial,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
  contactId?: string;
  initial?: Partial<ContactFormValues>;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  // A refusal no field takes (a contact with this email exists, say): shown above the buttons until a value changes.
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<ContactFormValues>({
    initialValues: { ...blankContact, ...initial },
    validate: (v) => validateContact(v, !contactId),
    onValuesChange: () => setRefusal(null),
  });
  // "A contact needs a name or an email" is said on the first name, and goes as soon as any of the three is filled.
  const hasNameOrEmail = Boolean(
    form.values.firstName.trim() || form.values.lastName.trim() || form.values.email.trim(),
  );
  const { clearFieldError } = form;
  useEffect(() => {
    if (hasNameOrEmail && form.errors.firstName === NEEDS_NAME_OR_EMAIL) clearFieldError("firstName");
  }, [hasNameOrEmail, form.errors.firstName, clearFieldError]);
  const close = () => {
    form.reset();
    setRefusal(null);
    onClose();
  };
  const onError = (err: { message: string; data?: unknown }) => {
    const fieldErrors =
      (err.data as { fieldErrors?: { pointer?: string; detail: string }[] | null } | undefined)?.fieldErrors ?? [];
    const placed = fieldErrors.filter((f) => {
      const field = fieldOfPointer(f.pointer);
      if (field) form.setFieldError(field, f.detail);
      return field;
    });
    if (!placed.length) setRefusal(err.message);
  };
  // A saved address changes the contact's verdict too: "Mailability now" reads it afresh.
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.mailability.contact.pathKey() }),
    ]);
  const update = useMutation(
    trpc.contact.update.mutationOptions({
      onError,
      onSuccess: () => {
        void invalidate();
        notifications.show({ color: "teal", message: "Contact saved." });
        close();
      },
    }),
  );
  const create = useMutation(
    trpc.contact.create.mutationOptions({
      onError,
      onSuccess: (c) => {
        void invalidate();
        close();
        router.push(`/w/${workspaceId}/contacts/${c.id}`);
      },
    }),
  );
  const submit = form.onSubmit((v) => {
    const fields = contactPayload(v, parseCustomFields(v.customFields).fields);
    if (contactId) update.mutate({ workspaceId, contactId, fields });
    else create.mutate({ workspaceId, fields: { ...fields, company: v.company.trim() || null } });
  });
  return (
    <Modal opened={opened} onClose={close} title={contactId ? "Edit contact" : "Add a contact"} size="lg">
      {/* The form library checks every field (noValidate: no browser popups), in the schema's words; no field is cut to a length. */}
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First name" {...form.getInputProps("firstName")} data-autofocus />
            <TextInput label="Last name" {...form.getInputProps("lastName")} />
            <TextInput label="Email" type="email" {...form.getInputProps("email")} />
            <TextInput label="Phone" {...form.getInputProps("phone")} />
            <TextInput label="Job title" {...form.getInputProps("title")} />
            {contactId ? (
              <TextInput label="CRM id" {...form.getInputProps("crmId")} />
            ) : (
              <TextInput
                label="Company"
                description="Finds its account, or makes one"
                {...form.getInputProps("company")}
              />
            )}
          </SimpleGrid>
          <TextInput label="Address line 1" {...form.getInputProps("addressLine1")} />
          <TextInput label="Address line 2" {...form.getInputProps("addressLine2")} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="City" {...form.getInputProps("city")} />
            <TextInput label="State / province / region" {...form.getInputProps("region")} />
            <TextInput label="Postal code" {...form.getInputProps("postalCode")} />
            <TextInput
              label="Country"
              description="A name or an ISO code (US, GB, DE)"
              {...form.getInputProps("country")}
            />
          </SimpleGrid>
          <Textarea
            label="Custom fields"
            description="One per line, as “Name: value”, e.g. “Lead source: Webinar”. Each is a merge field in copy, written {{custom.Name}}."
            autosize
            minRows={2}
            maxRows={8}
            {...form.getInputProps("customFields")}
          />
          {refusal && <Alert color="red">{refusal}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending || create.isPending}>
              {contactId ? "Save" : "Add contact"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
