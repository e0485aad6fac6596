"use client";

import {
  Alert,
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { TCampaignDraft } from "@/server/programme/campaigns/schema";
import { piecePriceAmount } from "@/server/programme/fulfilment/price-words";
import { CLAIM_WINDOW_DAYS } from "@/server/programme/responses/page-settings";
import { formatCents, formatCount } from "@/components/ui/format";
import { formatPlural } from "@/server/ground/render/format-words";
import { useTRPC } from "@/trpc/react";
import { blank, type FormValues, fromDraft, toDraft } from "./campaign-form-values";
import { ResponseSection } from "./campaign-response-section";
import { WhoAndWhen } from "./campaign-who-and-when";
import { useDefaultPicks } from "./use-default-picks";

/** Create or edit a draft campaign. Going live happens on the campaign's page, after a confirmation. */
export function CampaignForm({
  workspaceId,
  campaignId,
  initial,
}: {
  workspaceId: string;
  campaignId?: string;
  initial?: TCampaignDraft;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const audiences = useQuery(trpc.audience.list.queryOptions({ workspaceId }));
  const contracts = useQuery(trpc.fulfilment.contracts.queryOptions({ workspaceId }));
  const designs = useQuery(trpc.design.list.queryOptions({ workspaceId, take: 100 }));
  const form = useForm<FormValues>({
    initialValues: initial ? fromDraft(initial) : blank,
    validate: {
      name: (v) => (v.trim() ? null : "Give the campaign a name."),
      holdoutPercent: (v) => (v >= 0 && v <= 50 ? null : "Between 0% and 50%."),
      destinationUrl: (v) =>
        !v.trim() || /^https?:\/\/\S+$/.test(v.trim()) ? null : "An http(s) URL, like https://www.example.com/welcome.",
      meetingUrl: (v) =>
        !v.trim() || /^https:\/\/\S+$/.test(v.trim()) ? null : "An https URL, like https://cal.example.com/you/intro.",
      claimWindowDays: (v) =>
        v >= CLAIM_WINDOW_DAYS.min && v <= CLAIM_WINDOW_DAYS.max
          ? null
          : `Between ${CLAIM_WINDOW_DAYS.min} and ${CLAIM_WINDOW_DAYS.max} days.`,
    },
  });
  const onError = (err: { message: string; data?: unknown }) => {
    const fieldErrors = (err.data as { fieldErrors?: { pointer: string; detail: string }[] | null } | undefined)
      ?.fieldErrors;
    if (fieldErrors?.length) for (const f of fieldErrors) form.setFieldError(f.pointer.split("/").pop()!, f.detail);
    notifications.show({ color: "red", title: "Not saved", message: err.message });
  };
  const create = useMutation(
    trpc.campaign.create.mutationOptions({
      onError,
      onSuccess: (c) => router.push(`/w/${workspaceId}/campaigns/${c.id}`),
    }),
  );
  const update = useMutation(
    trpc.campaign.update.mutationOptions({
      onError,
      onSuccess: (c) => router.push(`/w/${workspaceId}/campaigns/${c.id}`),
    }),
  );
  const format = form.values.format;
  const contractOptions = (contracts.data ?? [])
    .filter((c) => c.format === format && (c.status !== "revoked" || c.id === form.values.fulfilmentContractId))
    .map((c) => ({
      value: c.id,
      label: `${c.name} · ${piecePriceAmount(c, formatCents)} each · ${c.status}${c.mode === "test" ? " · test mode" : ""}`,
    }));

  const formatDesigns = useDefaultPicks({
    enabled: !campaignId,
    format,
    designs: designs.data?.designs,
    contracts: contracts.data,
    designId: form.values.designId,
    contractId: form.values.fulfilmentContractId,
    pickDesign: (id) => form.setFieldValue("designId", id),
    pickContract: (id) => form.setFieldValue("fulfilmentContractId", id),
  });

  const submit = form.onSubmit((v) => {
    const draft = toDraft(v);
    if (campaignId) update.mutate({ workspaceId, campaignId, draft });
    else create.mutate({ workspaceId, draft });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={900}>
        <Title order={1} size="h2">
          {campaignId ? "Edit draft" : "New campaign"}
        </Title>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Who and how
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required {...form.getInputProps("name")} />
            <Select
              label="Format"
              data={[
                { value: "postcard", label: "Postcard" },
                { value: "letter", label: "Letter" },
                { value: "handwritten", label: "Handwritten note" },
                { value: "gift", label: "Gift" },
              ]}
              allowDeselect={false}
              {...form.getInputProps("format")}
              onChange={(v) => {
                form.setFieldValue("format", (v ?? "postcard") as FormValues["format"]);
                form.setFieldValue("fulfilmentContractId", null);
                form.setFieldValue("designId", null);
                // A claim page and gift options belong to gift campaigns.
                if (v !== "gift") {
                  if (form.values.responseMode === "gift_claim") form.setFieldValue("responseMode", "redirect");
                  form.setFieldValue("giftOptions", []);
                }
              }}
            />
            <Select
              label="Audience"
              placeholder={audiences.isPending ? "Loading…" : "Choose an audience"}
              data={(audiences.data ?? []).map((a) => ({
                value: a.id,
                label: `${a.name} (${formatCount(a.members, "contact")})`,
              }))}
              clearable
              {...form.getInputProps("audienceId")}
            />
            <Select
              label="Fulfilment contract"
              description="Without an approved contract nothing is printed."
              placeholder={contractOptions.length ? "Choose a contract" : `No contract for ${formatPlural(format)}`}
              data={contractOptions}
              clearable
              allowDeselect={false}
              {...form.getInputProps("fulfilmentContractId")}
            />
            <Switch
              label="Accept entry events from API keys"
              description="Frozen when the campaign goes live."
              {...form.getInputProps("acceptsApiEvents", { type: "checkbox" })}
            />
            <NumberInput
              label="Holdout share of accounts"
              description="Accounts never mailed, to measure lift against. Frozen at go-live."
              suffix="%"
              min={0}
              max={50}
              decimalScale={1}
              {...form.getInputProps("holdoutPercent")}
            />
          </SimpleGrid>
        </Paper>
        <WhoAndWhen form={form} />
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Gates
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label="Pieces per contact"
              description="Empty: no cap"
              min={1}
              max={52}
              allowDecimal={false}
              {...form.getInputProps("frequencyCapContact")}
            />
            <NumberInput
              label="Pieces per account"
              description="Empty: no cap"
              min={1}
              max={500}
              allowDecimal={false}
              {...form.getInputProps("frequencyCapAccount")}
            />
            <NumberInput
              label="Within (days)"
              min={1}
              max={365}
              allowDecimal={false}
              {...form.getInputProps("frequencyWindowDays")}
            />
            <Select
              label="Review gate"
              data={[
                { value: "none", label: "No review" },
                { value: "each_piece", label: "A person approves each piece" },
              ]}
              allowDeselect={false}
              {...form.getInputProps("reviewGate")}
            />
            <NumberInput
              label="Budget"
              prefix="$"
              min={0}
              decimalScale={2}
              thousandSeparator=","
              {...form.getInputProps("budgetDollars")}
            />
            <TextInput label="Ends on" type="date" description="Optional" {...form.getInputProps("endsAt")} />
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb={4}>
            Copy
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            The design sets the layout, image and suggested text; copy written here replaces the design&apos;s text for
            this campaign (leave a field empty to use the design&apos;s). Merge fields such as {"{{firstName|there}}"}{" "}
            or {"{{company}}"} are filled per recipient; the part after | prints when the contact has no value.
          </Text>
          <Stack>
            <Select
              label="Design"
              description={
                <>
                  Without one, the {format}&apos;s standard layout with your brand kit.{" "}
                  <Anchor component={Link} href={`/w/${workspaceId}/designs`} size="xs">
                    Manage designs
                  </Anchor>
                </>
              }
              placeholder={designs.isPending ? "Loading…" : "Standard layout"}
              data={formatDesigns.map((d) => ({ value: d.id, label: `${d.name} · ${d.size} · ${d.layout}` }))}
              clearable
              allowDeselect={false}
              {...form.getInputProps("designId")}
            />
            <TextInput label="Headline" {...form.getInputProps("headline")} />
            <Textarea label="Message" autosize minRows={5} {...form.getInputProps("bodyTemplate")} />
            <TextInput label="Sign-off" {...form.getInputProps("signOff")} />
          </Stack>
        </Paper>
        <ResponseSection form={form} />
        {campaignId && (
          <Alert color="gray" variant="light">
            Only drafts can be edited. Going live freezes the entry policy, the holdout arms and the copy.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => router.back()}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {campaignId ? "Save draft" : "Create draft"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
