"use client";

import {
  Alert,
  Anchor,
  Badge,
  Button,
  ColorInput,
  Grid,
  Group,
  Image,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDebouncedValue } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { IconAlertTriangle, IconFileTypePdf, IconInfoCircle } from "@tabler/icons-react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { PageError } from "@/components/ui/page-states";
import { RenderIssueAlerts } from "./render-issues";
import type { inferRouterOutputs } from "@trpc/server";
import type { TDesign } from "@/server/programme/designs/schema";
import type { AppRouter } from "@/server/doors/routers";
import { useTRPC } from "@/trpc/react";
import { IfCan } from "@/components/access/role";

type Format = TDesign["format"];
interface Values {
  name: string;
  format: Format;
  size: string;
  layout: string;
  image: TDesign["image"];
  customColors: boolean;
  primary: string;
  accent: string;
  text: string;
  headline: string;
  body: string;
  signOff: string;
  cta: string;
  giftItem: string | null;
}

/** Create or edit a design, with the live preview beside the form (rendered by the print renderer). */
export function DesignEditor({ workspaceId, designId }: { workspaceId: string; designId?: string }) {
  const trpc = useTRPC();
  const catalog = useQuery(trpc.design.catalog.queryOptions({ workspaceId }));
  const design = useQuery({
    ...trpc.design.get.queryOptions({ workspaceId, designId: designId ?? "" }),
    enabled: Boolean(designId),
  });
  const brand = useQuery(trpc.brand.get.queryOptions({ workspaceId }));
  if (catalog.isPending || brand.isPending || (designId && design.isPending)) return <Skeleton h={600} />;
  const failed = [catalog, brand, design].find((q) => q.isError);
  if (failed) return <PageError message={failed.error?.message} onRetry={() => failed.refetch()} />;
  return (
    <Editor
      workspaceId={workspaceId}
      designId={designId}
      catalog={catalog.data!}
      design={design.data}
      brandColors={brand.data!.colors}
    />
  );
}

type Catalog = inferRouterOutputs<AppRouter>["design"]["catalog"];

function Editor({
  workspaceId,
  designId,
  catalog,
  design,
  brandColors,
}: {
  workspaceId: string;
  designId?: string;
  catalog: Catalog;
  design?: TDesign;
  brandColors: { primary: string; accent: string; text: string };
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const first = catalog.formats[0];
  const form = useForm<Values>({
    initialValues: design
      ? {
          name: design.name,
          format: design.format,
          size: design.size,
          layout: design.layout,
          image: design.image,
          customColors: Object.keys(design.colors).length > 0,
          primary: design.colors.primary ?? brandColors.primary,
          accent: design.colors.accent ?? brandColors.accent,
          text: design.colors.text ?? brandColors.text,
          ...design.blocks,
          giftItem: design.giftItem,
        }
      : {
          name: "",
          format: first.format,
          size: first.defaultSize,
          layout: first.layouts[0].value,
          image: "logo",
          customColors: false,
          ...brandColors,
          ...first.suggested,
          giftItem: null,
        },
    validate: { name: (v) => (v.trim() ? null : "Give the design a name.") },
  });
  const v = form.values;
  const spec = catalog.formats.find((f) => f.format === v.format)!;
  const [contactQuery, setContactQuery] = useState("");
  const [contactId, setContactId] = useState<string | null>(null);
  const [debouncedQuery] = useDebouncedValue(contactQuery, 250);
  const contacts = useQuery(
    trpc.design.previewContacts.queryOptions({ workspaceId, query: debouncedQuery || undefined }),
  );
  const colors = v.customColors ? { primary: v.primary, accent: v.accent, text: v.text } : {};
  const previewInput = {
    format: v.format,
    size: v.size,
    layout: v.layout,
    image: v.image,
    colors,
    giftItem: v.format === "gift" ? (v.giftItem ?? catalog.gifts[0].value) : null,
    blocks: { headline: v.headline, body: v.body, signOff: v.signOff, cta: v.cta },
  };
  const [debounced] = useDebouncedValue({ design: previewInput, contactId }, 400);
  const preview = useQuery({
    ...trpc.design.preview.queryOptions({ workspaceId, ...debounced }),
    placeholderData: keepPreviousData,
    retry: false,
  });

  const onError = (err: { message: string; data?: unknown }) => {
    const fieldErrors = (err.data as { fieldErrors?: { pointer: string; detail: string }[] | null } | undefined)
      ?.fieldErrors;
    for (const f of fieldErrors ?? []) form.setFieldError(f.pointer.split("/").filter(Boolean).pop()!, f.detail);
    notifications.show({ color: "red", title: "Not saved", message: err.message });
  };
  const create = useMutation(
    trpc.design.create.mutationOptions({ onError, onSuccess: (d) => router.push(`/w/${workspaceId}/designs/${d.id}`) }),
  );
  const update = useMutation(
    trpc.design.update.mutationOptions({
      onError,
      onSuccess: (d) => {
        queryClient.setQueryData(trpc.design.get.queryKey({ workspaceId, designId: d.id }), d);
        notifications.show({
          color: "green",
          title: "Design saved",
          message: d.campaigns
            ? "Generate the drafts of its campaigns again to see the change there."
            : "Use it in a campaign to make a draft for each recipient.",
        });
      },
    }),
  );
  const submit = form.onSubmit((values) => {
    const fields = {
      name: values.name,
      size: values.size,
      layout: values.layout,
      image: values.image,
      colors: values.customColors ? { primary: values.primary, accent: values.accent, text: values.text } : {},
      blocks: { headline: values.headline, body: values.body, signOff: values.signOff, cta: values.cta },
      ...(values.format === "gift" ? { giftItem: (values.giftItem ?? catalog.gifts[0].value) as never } : {}),
    };
    if (designId) update.mutate({ workspaceId, designId, changes: fields });
    else create.mutate({ workspaceId, design: { ...fields, format: values.format } });
  });
  const setFormat = (format: Format) => {
    const f = catalog.formats.find((x) => x.format === format)!;
    form.setValues({
      format,
      size: f.defaultSize,
      layout: f.layouts[0].value,
      ...f.suggested,
      giftItem: format === "gift" ? catalog.gifts[0].value : null,
    });
  };
  const issues = preview.data?.issues ?? [];

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={1400}>
        <Group justify="space-between" align="flex-end">
          <div>
            <Anchor component={Link} href={`/w/${workspaceId}/designs`} size="sm">
              Designs
            </Anchor>
            <Title order={1} size="h2">
              {design ? design.name : "New design"}
            </Title>
          </div>
          <Group gap="xs">
            {designId && (
              <Button
                component="a"
                href={`/api/designs/${designId}/proof?workspaceId=${workspaceId}${contactId ? `&contactId=${contactId}` : ""}`}
                target="_blank"
                variant="default"
                leftSection={<IconFileTypePdf size={16} />}
              >
                Saved proof (PDF)
              </Button>
            )}
            <IfCan action="prepare">
              <Button type="submit" loading={create.isPending || update.isPending}>
                {designId ? "Save design" : "Create design"}
              </Button>
            </IfCan>
          </Group>
        </Group>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="md">
              <Paper withBorder p="md">
                <Stack gap="sm">
                  <TextInput label="Name" required {...form.getInputProps("name")} />
                  {!designId && (
                    <div>
                      <Text size="sm" fw={500} mb={4} id="format-label">
                        Format
                      </Text>
                      <SegmentedControl
                        aria-labelledby="format-label"
                        fullWidth
                        value={v.format}
                        onChange={(f) => setFormat(f as Format)}
                        data={[
                          { value: "postcard", label: "Postcard" },
                          { value: "letter", label: "Letter" },
                          { value: "handwritten", label: "Note" },
                          { value: "gift", label: "Gift" },
                        ]}
                      />
                    </div>
                  )}
                  <SimpleGrid cols={2}>
                    <Select label="Size" data={spec.sizes} allowDeselect={false} {...form.getInputProps("size")} />
                    <Select
                      label="Layout"
                      data={spec.layouts.map((l) => ({ value: l.value, label: l.label }))}
                      allowDeselect={false}
                      {...form.getInputProps("layout")}
                    />
                  </SimpleGrid>
                  <Text size="xs" c="dimmed">
                    {spec.layouts.find((l) => l.value === v.layout)?.description}{" "}
                    {spec.sizes.find((s) => s.value === v.size)?.label}; printed with 0.125 in bleed.
                  </Text>
                  <Select
                    label="Image"
                    data={[
                      { value: "logo", label: "The brand kit's logo" },
                      { value: "none", label: "No image" },
                      ...catalog.artworks.map((a) => ({ value: a, label: `Artwork: ${a}` })),
                    ]}
                    allowDeselect={false}
                    {...form.getInputProps("image")}
                  />
                  {v.format === "gift" && (
                    <Select
                      label="Gift"
                      data={catalog.gifts.map((g) => ({
                        value: g.value,
                        label: g.name,
                      }))}
                      allowDeselect={false}
                      description="Ships with the note card to a street address (never a PO box). Every gift costs the gift contract's price to send."
                      value={v.giftItem ?? catalog.gifts[0].value}
                      onChange={(g) => form.setFieldValue("giftItem", g)}
                    />
                  )}
                  <Switch
                    label="Use colours of its own instead of the brand kit's"
                    {...form.getInputProps("customColors", { type: "checkbox" })}
                  />
                  {v.customColors && (
                    <SimpleGrid cols={3}>
                      <ColorInput label="Primary" format="hex" {...form.getInputProps("primary")} />
                      <ColorInput label="Accent" format="hex" {...form.getInputProps("accent")} />
                      <ColorInput label="Text" format="hex" {...form.getInputProps("text")} />
                    </SimpleGrid>
                  )}
                </Stack>
              </Paper>
              <Paper withBorder p="md">
                <Title order={2} size="h5" mb={4}>
                  Text
                </Title>
                <Text size="xs" c="dimmed" mb="sm">
                  Merge fields: {catalog.mergeFields.map((f) => `{{${f.name}}}`).join(", ")}, and {"{{custom.<name>}}"}.
                  Add a fallback after a bar: {"{{firstName|there}}"}. A campaign&apos;s own copy replaces these.
                </Text>
                <Stack gap="sm">
                  <Textarea label="Headline" autosize minRows={1} {...form.getInputProps("headline")} />
                  <Textarea label="Message" autosize minRows={5} {...form.getInputProps("body")} />
                  <TextInput
                    label="Sign-off"
                    description="Empty: the brand kit's sign-off"
                    {...form.getInputProps("signOff")}
                  />
                  <TextInput
                    label="Call to action"
                    description="Printed beside the QR code"
                    {...form.getInputProps("cta")}
                  />
                </Stack>
              </Paper>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Paper withBorder p="md" pos="sticky" top={72}>
              <Group justify="space-between" mb="sm" wrap="wrap">
                <Group gap="xs">
                  <Title order={2} size="h5">
                    Live preview
                  </Title>
                  {preview.isFetching && <Loader size="xs" aria-label="Rendering" />}
                </Group>
                <Select
                  aria-label="Preview for"
                  placeholder="A sample recipient"
                  searchable
                  clearable
                  w={260}
                  maw="100%"
                  data={(contacts.data ?? []).map((c) => ({
                    value: c.id,
                    label: `${c.name}${c.company ? ` · ${c.company}` : ""}`,
                  }))}
                  searchValue={contactQuery}
                  onSearchChange={setContactQuery}
                  value={contactId}
                  onChange={setContactId}
                  nothingFoundMessage={contacts.isPending ? "Loading…" : "No contact matches"}
                />
              </Group>
              {preview.isError && (
                <Alert color="red" icon={<IconAlertTriangle size={18} />} mb="sm">
                  {preview.error.message}
                </Alert>
              )}
              {preview.data ? (
                <Stack gap="sm">
                  {preview.data.specimen && (
                    <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} />} p="xs">
                      On the free audit plan every page carries “Specimen — not mailed”.
                    </Alert>
                  )}
                  <RenderIssueAlerts issues={issues} />
                  {preview.data.missingFields.length > 0 && (
                    <Alert color="yellow" p="xs" icon={<IconAlertTriangle size={18} />}>
                      {preview.data.recipient.name} has no {preview.data.missingFields.join(", ")}, and the text gives
                      no fallback.
                    </Alert>
                  )}
                  {preview.data.pages.map((page) => (
                    <figure key={page.label} style={{ margin: 0 }}>
                      <Image
                        src={page.src}
                        alt={`${page.label} for ${preview.data.recipient.name}`}
                        radius="sm"
                        style={{ border: "1px solid var(--mantine-color-gray-3)" }}
                      />
                      <Text component="figcaption" size="xs" c="dimmed" mt={4}>
                        <Badge size="xs" variant="light" mr={6}>
                          {page.label}
                        </Badge>
                        for {preview.data.recipient.name}. Dashed lines: trim and safe zone; shaded: kept clear for the
                        address and postage.
                      </Text>
                    </figure>
                  ))}
                </Stack>
              ) : (
                <Skeleton h={360} />
              )}
            </Paper>
          </Grid.Col>
        </Grid>
      </Stack>
    </form>
  );
}
