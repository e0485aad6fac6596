"use client";

import { Alert, Anchor, Button, Checkbox, Group, NumberInput, Paper, Radio, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from "@mantine/core";
import { type UseFormReturnType, useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { TCampaignDraft } from "@/server/campaigns/schema";
import { GIFT_CATALOG, type TGiftItem } from "@/server/designs/gift-catalog";
import { CLAIM_WINDOW_DAYS, type TPageCallToAction, type TResponseMode } from "@/server/responses/page-settings";
import { formatCents } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";
import { useDefaultPicks } from "./use-default-picks";

interface FormValues {
  name: string;
  format: TCampaignDraft["format"];
  audienceId: string | null;
  acceptsApiEvents: boolean;
  entryPolicy: NonNullable<TCampaignDraft["entryPolicy"]>;
  /** datetime-local value in the browser's time zone; empty: at once. */
  sendAt: string;
  holdoutPercent: number;
  frequencyCapContact: number | string;
  frequencyCapAccount: number | string;
  frequencyWindowDays: number;
  reviewGate: TCampaignDraft["reviewGate"];
  budgetDollars: number;
  fulfilmentContractId: string | null;
  designId: string | null;
  destinationUrl: string;
  headline: string;
  bodyTemplate: string;
  signOff: string;
  endsAt: string;
  responseMode: TResponseMode;
  pageCallToAction: TPageCallToAction;
  meetingUrl: string;
  giftOptions: TGiftItem[];
  claimWindowDays: number;
}

const blank: FormValues = {
  name: "",
  format: "postcard",
  audienceId: null,
  acceptsApiEvents: true,
  entryPolicy: "audience_at_go_live",
  sendAt: "",
  holdoutPercent: 20,
  frequencyCapContact: 1,
  frequencyCapAccount: "",
  frequencyWindowDays: 30,
  reviewGate: "none",
  budgetDollars: 500,
  fulfilmentContractId: null,
  designId: null,
  destinationUrl: "",
  headline: "",
  bodyTemplate: "",
  signOff: "",
  endsAt: "",
  responseMode: "redirect",
  pageCallToAction: "reply",
  meetingUrl: "",
  giftOptions: [],
  claimWindowDays: CLAIM_WINDOW_DAYS.default,
};

/** A date as a datetime-local input shows it, in the browser's time zone. */
const toLocalInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

const optionalInt = (v: number | string) => (v === "" || v === null ? null : Number(v));

export function toDraft(v: FormValues): TCampaignDraft {
  return {
    name: v.name,
    format: v.format,
    audienceId: v.audienceId,
    acceptsApiEvents: v.acceptsApiEvents,
    entryPolicy: v.entryPolicy,
    sendAt: v.entryPolicy !== "none" && v.sendAt ? new Date(v.sendAt) : null,
    holdoutShare: Math.round(v.holdoutPercent * 10) / 1000,
    frequencyCapContact: optionalInt(v.frequencyCapContact),
    frequencyCapAccount: optionalInt(v.frequencyCapAccount),
    frequencyWindowDays: v.frequencyWindowDays,
    reviewGate: v.reviewGate,
    budgetCents: Math.round(v.budgetDollars * 100),
    fulfilmentContractId: v.fulfilmentContractId,
    designId: v.designId,
    destinationUrl: v.destinationUrl.trim() || null,
    headline: v.headline,
    bodyTemplate: v.bodyTemplate,
    signOff: v.signOff,
    endsAt: v.endsAt ? new Date(`${v.endsAt}T23:59:59Z`) : null,
    responseMode: v.responseMode,
    pageCallToAction: v.pageCallToAction,
    meetingUrl: v.meetingUrl.trim() || null,
    giftOptions: v.format === "gift" ? v.giftOptions : [],
    claimWindowDays: v.claimWindowDays,
  };
}

export function fromDraft(c: TCampaignDraft): FormValues {
  return {
    ...c,
    holdoutPercent: Math.round(c.holdoutShare * 1000) / 10,
    frequencyCapContact: c.frequencyCapContact ?? "",
    frequencyCapAccount: c.frequencyCapAccount ?? "",
    budgetDollars: c.budgetCents / 100,
    designId: c.designId ?? null,
    destinationUrl: c.destinationUrl ?? "",
    endsAt: c.endsAt ? new Date(c.endsAt).toISOString().slice(0, 10) : "",
    entryPolicy: c.entryPolicy ?? "none",
    sendAt: c.sendAt ? toLocalInput(new Date(c.sendAt)) : "",
    responseMode: c.responseMode ?? "redirect",
    pageCallToAction: c.pageCallToAction ?? "reply",
    meetingUrl: c.meetingUrl ?? "",
    giftOptions: c.giftOptions ?? [],
    claimWindowDays: c.claimWindowDays ?? CLAIM_WINDOW_DAYS.default,
  };
}

/** Create or edit a draft campaign. Going live happens on the campaign's page, after a confirmation. */
export function CampaignForm({ workspaceId, campaignId, initial }: { workspaceId: string; campaignId?: string; initial?: TCampaignDraft }) {
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
      destinationUrl: (v) => (!v.trim() || /^https?:\/\/\S+$/.test(v.trim()) ? null : "An http(s) URL, like https://www.example.com/welcome."),
      meetingUrl: (v) => (!v.trim() || /^https:\/\/\S+$/.test(v.trim()) ? null : "An https URL, like https://cal.example.com/you/intro."),
      claimWindowDays: (v) => (v >= CLAIM_WINDOW_DAYS.min && v <= CLAIM_WINDOW_DAYS.max ? null : `Between ${CLAIM_WINDOW_DAYS.min} and ${CLAIM_WINDOW_DAYS.max} days.`),
    },
  });
  const onError = (err: { message: string; data?: unknown }) => {
    const fieldErrors = (err.data as { fieldErrors?: { pointer: string; detail: string }[] | null } | undefined)?.fieldErrors;
    if (fieldErrors?.length) for (const f of fieldErrors) form.setFieldError(f.pointer.split("/").pop()!, f.detail);
    notifications.show({ color: "red", title: "Not saved", message: err.message });
  };
  const create = useMutation(trpc.campaign.create.mutationOptions({ onError, onSuccess: (c) => router.push(`/w/${workspaceId}/campaigns/${c.id}`) }));
  const update = useMutation(trpc.campaign.update.mutationOptions({ onError, onSuccess: (c) => router.push(`/w/${workspaceId}/campaigns/${c.id}`) }));
  const format = form.values.format;
  const contractOptions = (contracts.data ?? [])
    .filter((c) => c.format === format && (c.status !== "revoked" || c.id === form.values.fulfilmentContractId))
    .map((c) => ({ value: c.id, label: `${c.name} · ${formatCents(c.unitCostCents)} each · ${c.status}${c.mode === "test" ? " · test mode" : ""}` }));

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
              data={(audiences.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.members} contacts)` }))}
              clearable
              {...form.getInputProps("audienceId")}
            />
            <Select
              label="Fulfilment contract"
              description="Without an approved contract nothing is printed."
              placeholder={contractOptions.length ? "Choose a contract" : `No contract for ${format}s`}
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
            <NumberInput label="Pieces per contact" description="Empty: no cap" min={1} max={52} allowDecimal={false} {...form.getInputProps("frequencyCapContact")} />
            <NumberInput label="Pieces per account" description="Empty: no cap" min={1} max={500} allowDecimal={false} {...form.getInputProps("frequencyCapAccount")} />
            <NumberInput label="Within (days)" min={1} max={365} allowDecimal={false} {...form.getInputProps("frequencyWindowDays")} />
            <Select
              label="Review gate"
              data={[
                { value: "none", label: "No review" },
                { value: "each_piece", label: "A person approves each piece" },
              ]}
              allowDeselect={false}
              {...form.getInputProps("reviewGate")}
            />
            <NumberInput label="Budget" prefix="$" min={0} decimalScale={2} thousandSeparator="," {...form.getInputProps("budgetDollars")} />
            <TextInput label="Ends on" type="date" description="Optional" {...form.getInputProps("endsAt")} />
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb={4}>
            Copy
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            The design sets the layout, image and suggested text; copy written here replaces the design&apos;s text for this campaign (leave a field empty to use the design&apos;s).
            Merge fields such as {"{{firstName|there}}"} or {"{{company}}"} are filled per recipient; the part after | prints when the contact has no value.
          </Text>
          <Stack>
            <Select
              label="Design"
              description={<>Without one, the {format}&apos;s standard layout with your brand kit. <Anchor component={Link} href={`/w/${workspaceId}/designs`} size="xs">Manage designs</Anchor></>}
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

type Form = UseFormReturnType<FormValues>;

/** What the printed response link opens: the destination, a personal landing page, or (gifts) a claim page. */
function ResponseSection({ form }: { form: Form }) {
  const v = form.values;
  const gift = v.format === "gift";
  const landing = v.responseMode === "landing_page";
  const claim = v.responseMode === "gift_claim";
  const needsDestination = v.responseMode === "redirect" || (landing && v.pageCallToAction === "visit_site");
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb={4}>
        Response
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        What the printed link and QR code open. A hosted page is a page on this service made for each recipient in your brand kit&apos;s look; what they do there is recorded on this campaign.
      </Text>
      <Stack>
        <Select
          label="The printed link opens"
          allowDeselect={false}
          data={[
            { value: "redirect", label: "Your site (the destination URL, with sid)" },
            { value: "landing_page", label: "A personal landing page" },
            ...(gift ? [{ value: "gift_claim", label: "A gift claim page (the gift ships only after a claim)" }] : []),
          ]}
          {...form.getInputProps("responseMode")}
        />
        {landing && (
          <Select
            label="Call to action"
            description="The landing page shows the recipient's name, company and message, then this one action."
            allowDeselect={false}
            data={[
              { value: "reply", label: "Reply: a short form" },
              { value: "meeting", label: "Book a meeting: your scheduling link, in a new tab" },
              { value: "visit_site", label: "Visit the site: the destination URL, with sid" },
            ]}
            {...form.getInputProps("pageCallToAction")}
          />
        )}
        {landing && v.pageCallToAction === "meeting" && (
          <TextInput label="Meeting link" description="A scheduling page of your choice (https). Each click is recorded." placeholder="https://cal.example.com/you/intro" {...form.getInputProps("meetingUrl")} />
        )}
        <TextInput
          label="Destination URL"
          description={needsDestination ? "Where the link leads; sid=… is added to it so you can report conversions." : "Not used by this page; keep one for a later campaign if you like."}
          placeholder="https://www.example.com/welcome"
          {...form.getInputProps("destinationUrl")}
        />
        {claim && (
          <>
            <Checkbox.Group
              label="Gifts the recipient may choose from"
              description="None ticked: the design's gift alone. Every gift costs the same to send (the printer contract's price)."
              value={v.giftOptions}
              onChange={(values) => form.setFieldValue("giftOptions", values as TGiftItem[])}
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
                {(Object.entries(GIFT_CATALOG) as [TGiftItem, (typeof GIFT_CATALOG)[TGiftItem]][]).map(([id, g]) => (
                  <Checkbox key={id} value={id} label={g.name} description={g.description} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <NumberInput
              label="Days to claim"
              description="The gift's budget is held meanwhile; unclaimed by then, nothing ships and the budget is released."
              min={CLAIM_WINDOW_DAYS.min}
              max={CLAIM_WINDOW_DAYS.max}
              allowDecimal={false}
              w={200}
              {...form.getInputProps("claimWindowDays")}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** "Who gets this, and when?": the entry policy in words, and an optional send date (issue 24). */
function WhoAndWhen({ form }: { form: UseFormReturnType<FormValues> }) {
  const policy = form.values.entryPolicy;
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="md">
        Who gets this, and when?
      </Title>
      <Stack gap="md">
        <Radio.Group label="Who the campaign mails by itself once it is live" description="Frozen when the campaign goes live. Everyone still passes the checks: holdout, suppression, address, frequency, review and budget." {...form.getInputProps("entryPolicy")}>
          <Stack gap="xs" mt="xs">
            <Radio value="audience_at_go_live" label="Everyone in the audience when it goes live, once" />
            <Radio value="audience_joins" label="Everyone in the audience when it goes live, and each person added to the audience afterwards" />
            <Radio value="none" label="Nobody by itself: only people you send by hand or your systems send with entry events" />
          </Stack>
        </Radio.Group>
        {policy !== "none" ? (
          <TextInput
            label="Send on"
            type="datetime-local"
            description="Optional, in your time zone. Empty: as soon as the campaign goes live. Nobody is mailed before then."
            {...form.getInputProps("sendAt")}
          />
        ) : null}
        {policy === "none" && !form.values.acceptsApiEvents ? (
          <Alert color="yellow" title="Nobody would get this">
            With neither the audience nor entry events from API keys, the campaign cannot go live. Choose who gets it, or turn on entry events.
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
