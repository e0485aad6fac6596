"use client";

import { Alert, Button, Group, Modal, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/trpc/react";

export interface ContactFormValues {
  firstName: string;
  lastName: string;
  title: string;
  email: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  crmId: string;
  company: string;
  customFields: string;
}

const blank: ContactFormValues = { firstName: "", lastName: "", title: "", email: "", phone: "", addressLine1: "", addressLine2: "", city: "", region: "", postalCode: "", country: "", crmId: "", company: "", customFields: "" };

/** "Shoe size: 9" lines <-> { "Shoe size": "9" } */
const parseCustom = (text: string) =>
  Object.fromEntries(
    text
      .split("\n")
      .map((l) => l.split(/:(.*)/s))
      .filter(([k, v]) => k?.trim() && v?.trim())
      .map(([k, v]) => [k.trim(), v.trim()]),
  );
export const formatCustom = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");

/** Add a contact, or edit one (`contactId`). Server errors land on their fields. */
export function ContactFormModal({ workspaceId, opened, onClose, contactId, initial }: { workspaceId: string; opened: boolean; onClose: () => void; contactId?: string; initial?: Partial<ContactFormValues> }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<ContactFormValues>({ initialValues: { ...blank, ...initial } });
  const onError = (err: { message: string; data?: unknown }) => {
    const fieldErrors = (err.data as { fieldErrors?: { pointer: string; detail: string }[] | null } | undefined)?.fieldErrors;
    for (const f of fieldErrors ?? []) form.setFieldError(f.pointer.split("/").pop()!, f.detail);
  };
  // A saved address changes the contact's verdict too: "Mailability now" reads it afresh.
  const invalidate = () => Promise.all([queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.mailability.contact.pathKey() })]);
  const update = useMutation(
    trpc.contact.update.mutationOptions({
      onError,
      onSuccess: () => {
        void invalidate();
        notifications.show({ color: "teal", message: "Contact saved." });
        onClose();
      },
    }),
  );
  const create = useMutation(
    trpc.contact.create.mutationOptions({
      onError,
      onSuccess: (c) => {
        void invalidate();
        onClose();
        router.push(`/w/${workspaceId}/contacts/${c.id}`);
      },
    }),
  );
  const error = update.error ?? create.error;
  const submit = form.onSubmit((v) => {
    const fields = {
      firstName: v.firstName,
      lastName: v.lastName,
      title: v.title || null,
      email: v.email || null,
      phone: v.phone || null,
      addressLine1: v.addressLine1 || null,
      addressLine2: v.addressLine2 || null,
      city: v.city || null,
      region: v.region || null,
      postalCode: v.postalCode || null,
      country: v.country || null,
      crmId: v.crmId || null,
      customFields: parseCustom(v.customFields),
    };
    if (contactId) update.mutate({ workspaceId, contactId, fields });
    else create.mutate({ workspaceId, fields: { ...fields, company: v.company || null } });
  });
  return (
    <Modal opened={opened} onClose={onClose} title={contactId ? "Edit contact" : "Add a contact"} size="lg">
      <form onSubmit={submit}>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First name" maxLength={100} {...form.getInputProps("firstName")} data-autofocus />
            <TextInput label="Last name" maxLength={100} {...form.getInputProps("lastName")} />
            <TextInput label="Email" type="email" maxLength={254} {...form.getInputProps("email")} />
            <TextInput label="Phone" maxLength={50} {...form.getInputProps("phone")} />
            <TextInput label="Job title" maxLength={200} {...form.getInputProps("title")} />
            {contactId ? <TextInput label="CRM id" maxLength={100} {...form.getInputProps("crmId")} /> : <TextInput label="Company" description="Finds its account, or makes one" maxLength={200} {...form.getInputProps("company")} />}
          </SimpleGrid>
          <TextInput label="Address line 1" maxLength={200} {...form.getInputProps("addressLine1")} />
          <TextInput label="Address line 2" maxLength={200} {...form.getInputProps("addressLine2")} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="City" maxLength={100} {...form.getInputProps("city")} />
            <TextInput label="State / province / region" maxLength={100} {...form.getInputProps("region")} />
            <TextInput label="Postal code" maxLength={20} {...form.getInputProps("postalCode")} />
            <TextInput label="Country" description="A name or an ISO code (US, GB, DE)" maxLength={100} {...form.getInputProps("country")} />
          </SimpleGrid>
          <Textarea label="Custom fields" description="One per line, as “Name: value”. Each is a merge field in copy." autosize minRows={2} maxRows={8} {...form.getInputProps("customFields")} />
          {error && <Alert color="red">{error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
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
