"use client";

import { Alert, Button, Checkbox, Group, List, Modal, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { IconLock } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

export type CrmKindName = "hubspot" | "salesforce";
export const CRM_NAMES: Record<CrmKindName, string> = { hubspot: "HubSpot", salesforce: "Salesforce" };

/**
 * Connect HubSpot (a private app's access token) or Salesforce (My Domain URL, connected app's
 * consumer key and secret). The server checks them with the CRM before anything is saved; a
 * refusal says what is wrong or missing, beside the field. Salesforce: whether Leads are synced too
 * (off unless the connection already syncs them).
 */
export function ConnectModal({
  workspaceId,
  kind,
  opened,
  onClose,
  leads = false,
}: {
  workspaceId: string;
  kind: CrmKindName;
  opened: boolean;
  onClose: () => void;
  leads?: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { accessToken: "", myDomainUrl: "", clientId: "", clientSecret: "", leads },
    validate: (v) =>
      kind === "hubspot"
        ? { accessToken: v.accessToken.trim() ? null : "Paste the private app's access token." }
        : {
            myDomainUrl: v.myDomainUrl.trim() ? null : "Paste your My Domain URL.",
            clientId: v.clientId.trim() ? null : "Paste the consumer key.",
            clientSecret: v.clientSecret.trim() ? null : "Paste the consumer secret.",
          },
  });
  const close = () => {
    form.reset();
    connect.reset();
    onClose();
  };
  const connect = useMutation(
    trpc.crm.connect.mutationOptions({
      onSuccess: async (result) => {
        notifications.show({
          color: "teal",
          title: `${CRM_NAMES[kind]} connected`,
          message: "The first sync has started; its progress is on this page.",
        });
        if (result.leadsNote)
          notifications.show({
            color: "yellow",
            title: "Leads are not synced",
            message: result.leadsNote,
            autoClose: false,
          });
        await queryClient.invalidateQueries({ queryKey: trpc.crm.connections.queryKey({ workspaceId }) });
        close();
      },
      onError: (err) => {
        const pointer = (err.data as { fieldErrors?: { pointer?: string }[] } | undefined)?.fieldErrors?.[0]?.pointer
          ?.split("/")
          .pop();
        const field = pointer && pointer in form.values ? pointer : kind === "hubspot" ? "accessToken" : "clientId";
        form.setFieldError(field, err.message);
      },
    }),
  );
  const submit = form.onSubmit((v) =>
    connect.mutate({
      workspaceId,
      credentials:
        kind === "hubspot"
          ? { kind, accessToken: v.accessToken.trim() }
          : {
              kind,
              myDomainUrl: v.myDomainUrl.trim(),
              clientId: v.clientId.trim(),
              clientSecret: v.clientSecret.trim(),
              leads: v.leads,
            },
    }),
  );

  return (
    <Modal opened={opened} onClose={close} title={`Connect ${CRM_NAMES[kind]}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {kind === "hubspot" ? (
            <>
              <Text size="sm">
                Create a private app in HubSpot (Settings → Integrations → Private apps) with these read scopes, then
                copy its access token from the app&apos;s Auth tab:
              </Text>
              <List size="sm" spacing={2}>
                <List.Item>crm.objects.contacts.read</List.Item>
                <List.Item>crm.objects.companies.read</List.Item>
                <List.Item>crm.objects.deals.read</List.Item>
                <List.Item>crm.lists.read</List.Item>
              </List>
              <PasswordInput
                label="Access token"
                placeholder="pat-na1-…"
                autoComplete="off"
                data-autofocus
                required
                maxLength={500}
                {...form.getInputProps("accessToken")}
              />
            </>
          ) : (
            <>
              <Text size="sm">
                In Salesforce, create a connected app with OAuth enabled and <b>Enable Client Credentials Flow</b>{" "}
                ticked, and in its policies choose a Run As user who can read Accounts, Contacts, Opportunities,
                Campaigns and Campaign Members. Then copy the consumer key and secret from Manage Consumer Details.
              </Text>
              <TextInput
                label="My Domain URL"
                description="Setup → My Domain"
                placeholder="https://acme.my.salesforce.com"
                autoComplete="off"
                data-autofocus
                required
                maxLength={300}
                {...form.getInputProps("myDomainUrl")}
              />
              <TextInput
                label="Consumer key"
                autoComplete="off"
                required
                maxLength={300}
                {...form.getInputProps("clientId")}
              />
              <PasswordInput
                label="Consumer secret"
                autoComplete="off"
                required
                maxLength={300}
                {...form.getInputProps("clientSecret")}
              />
              <Checkbox
                label="Also sync Leads"
                description="Unconverted leads become contacts and join their campaigns' audiences; the Run As user must be able to read Leads."
                {...form.getInputProps("leads", { type: "checkbox" })}
              />
            </>
          )}
          <Alert color="gray" icon={<IconLock size={18} />} p="sm">
            The credentials are checked with {CRM_NAMES[kind]} at once, stored encrypted, and never shown again, to you
            or to any agent. The service only reads from your CRM.
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={connect.isPending}>
              Check and connect
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
