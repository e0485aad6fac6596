"use client";

import {
  Alert,
  Button,
  ColorInput,
  FileButton,
  Group,
  Image,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { IconAlertTriangle, IconUpload } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PageError } from "@/components/ui/page-states";
import type { TBrandKit } from "@/server/programme/brand/schema";
import { useTRPC } from "@/trpc/react";
import { readAsDataUrl } from "./read-file";
import { IfCan } from "@/components/access/role";

interface Values {
  companyName: string;
  primary: string;
  accent: string;
  text: string;
  heading: string;
  body: string;
  handwriting: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  signOff: string;
  destinationUrl: string;
}

const toValues = (k: TBrandKit): Values => ({
  companyName: k.companyName,
  ...k.colors,
  ...k.fonts,
  addressLine1: k.returnAddress?.addressLine1 ?? "",
  addressLine2: k.returnAddress?.addressLine2 ?? "",
  city: k.returnAddress?.city ?? "",
  region: k.returnAddress?.region ?? "",
  postalCode: k.returnAddress?.postalCode ?? "",
  country: k.returnAddress?.country ?? "US",
  signOff: k.signOff,
  destinationUrl: k.destinationUrl ?? "",
});

/** Settings → Brand: what every design, draft and proof of the workspace takes its look from. */
export function BrandKitForm({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.brand.get.queryOptions({ workspaceId }));
  const catalog = useQuery(trpc.design.catalog.queryOptions({ workspaceId }));
  if (query.isPending || catalog.isPending) return <Skeleton h={520} />;
  if (query.isError) return <PageError message={query.error.message} onRetry={() => query.refetch()} />;
  if (catalog.isError) return <PageError message={catalog.error.message} onRetry={() => catalog.refetch()} />;
  return <Form workspaceId={workspaceId} kit={query.data} fonts={catalog.data.fonts} />;
}

function ImagePicker({
  label,
  hint,
  src,
  onPick,
  onRemove,
  busy,
}: {
  label: string;
  hint: string;
  src: string | null;
  onPick: (f: File) => void;
  onRemove: () => void;
  busy: boolean;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Paper
        withBorder
        p="sm"
        bg="gray.0"
        h={96}
        style={{ display: "flex", alignItems: "center", justifyContent: "center" }}
      >
        {src ? (
          <Image src={src} alt={`Current ${label.toLowerCase()}`} mah={72} maw="100%" fit="contain" />
        ) : (
          <Text size="sm" c="dimmed">
            None yet
          </Text>
        )}
      </Paper>
      <Group gap="xs">
        <FileButton onChange={(f) => f && onPick(f)} accept="image/png,image/svg+xml">
          {(props) => (
            <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />} loading={busy}>
              Upload PNG or SVG
            </Button>
          )}
        </FileButton>
        {src && (
          <Button size="xs" variant="subtle" color="red" onClick={onRemove} disabled={busy}>
            Remove
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}

function Form({
  workspaceId,
  kit,
  fonts,
}: {
  workspaceId: string;
  kit: TBrandKit;
  fonts: { text: { value: string; label: string }[]; handwriting: { value: string; label: string }[] };
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState(() => String(kit.updatedAt ?? ""));
  const form = useForm<Values>({
    initialValues: toValues(kit),
    validate: {
      companyName: (v) => (v.trim() ? null : "Give the company name."),
      destinationUrl: (v) =>
        !v.trim() || /^https?:\/\/\S+$/.test(v.trim()) ? null : "An http(s) URL, like https://www.example.com/welcome.",
      country: (v) => (/^[A-Za-z]{2}$/.test(v.trim()) ? null : "A two-letter code, like US or DE."),
    },
  });
  const saved = (k: TBrandKit) => {
    queryClient.setQueryData(trpc.brand.get.queryKey({ workspaceId }), k);
    setVersion(String(k.updatedAt ?? Date.now()));
  };
  const onError = (err: { message: string; data?: unknown }) => {
    const fieldErrors = (err.data as { fieldErrors?: { pointer: string; detail: string }[] | null } | undefined)
      ?.fieldErrors;
    for (const f of fieldErrors ?? []) form.setFieldError(f.pointer.split("/").pop()!, f.detail);
    notifications.show({ color: "red", title: "Not saved", message: err.message });
  };
  const update = useMutation(
    trpc.brand.update.mutationOptions({
      onError,
      onSuccess: (k) => (
        saved(k),
        notifications.show({
          color: "green",
          title: "Brand kit saved",
          message: "New drafts and previews use it; generate a campaign's drafts again to update them.",
        })
      ),
    }),
  );
  const image = useMutation(
    trpc.brand.update.mutationOptions({
      onError: (e) => notifications.show({ color: "red", title: "Not uploaded", message: e.message }),
      onSuccess: saved,
    }),
  );
  const pick = async (which: "logo" | "signature", file: File) => {
    if (file.size > 2 * 1024 * 1024)
      return notifications.show({
        color: "red",
        title: "Not uploaded",
        message: `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; upload at most 2 MB.`,
      });
    image.mutate({ workspaceId, [which]: await readAsDataUrl(file) });
  };
  const current = queryClient.getQueryData(trpc.brand.get.queryKey({ workspaceId })) ?? kit;
  const submit = form.onSubmit((v) =>
    update.mutate({
      workspaceId,
      companyName: v.companyName,
      colors: { primary: v.primary, accent: v.accent, text: v.text },
      fonts: { heading: v.heading as never, body: v.body as never, handwriting: v.handwriting as never },
      ...(v.addressLine1.trim()
        ? {
            returnAddress: {
              addressLine1: v.addressLine1,
              addressLine2: v.addressLine2 || null,
              city: v.city,
              region: v.region || null,
              postalCode: v.postalCode,
              country: v.country,
            },
          }
        : {}),
      signOff: v.signOff,
      destinationUrl: v.destinationUrl.trim() || null,
    }),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={960}>
        <Text c="dimmed" size="sm">
          Every design, draft and proof takes its look from here: the logo, colours and fonts, the return address
          printed on each piece, and the sign-off.
        </Text>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Identity
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stack>
              <TextInput label="Company name" required {...form.getInputProps("companyName")} />
              <TextInput
                label="Default destination URL"
                description="A campaign created without a destination of its own starts with this one: where its printed response links lead."
                placeholder="https://www.example.com/welcome"
                {...form.getInputProps("destinationUrl")}
              />
              <TextInput
                label="Sign-off"
                description="Printed in the handwriting font when a design or campaign sets none."
                placeholder="Sam Whitmore, Acme"
                {...form.getInputProps("signOff")}
              />
            </Stack>
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <ImagePicker
                label="Logo"
                hint="PNG or SVG up to 2 MB; 600 px wide or more prints sharply."
                src={
                  current.logo ? `/api/brand/logo?workspaceId=${workspaceId}&v=${encodeURIComponent(version)}` : null
                }
                onPick={(f) => pick("logo", f)}
                onRemove={() => image.mutate({ workspaceId, logo: null })}
                busy={image.isPending}
              />
              <ImagePicker
                label="Signature"
                hint="Optional, printed under the sign-off on letters and notes."
                src={
                  current.signature
                    ? `/api/brand/signature?workspaceId=${workspaceId}&v=${encodeURIComponent(version)}`
                    : null
                }
                onPick={(f) => pick("signature", f)}
                onRemove={() => image.mutate({ workspaceId, signature: null })}
                busy={image.isPending}
              />
            </SimpleGrid>
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Colours and fonts
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <ColorInput label="Primary" format="hex" withEyeDropper={false} {...form.getInputProps("primary")} />
            <ColorInput label="Accent" format="hex" withEyeDropper={false} {...form.getInputProps("accent")} />
            <ColorInput label="Text" format="hex" withEyeDropper={false} {...form.getInputProps("text")} />
            <Select label="Headings" data={fonts.text} allowDeselect={false} {...form.getInputProps("heading")} />
            <Select label="Body text" data={fonts.text} allowDeselect={false} {...form.getInputProps("body")} />
            <Select
              label="Handwriting"
              description="Notes and sign-offs"
              data={fonts.handwriting}
              allowDeselect={false}
              {...form.getInputProps("handwriting")}
            />
          </SimpleGrid>
          {current.contrastWarnings.length > 0 && (
            <Alert color="yellow" icon={<IconAlertTriangle size={18} />} mt="md" title="Hard to read">
              <Stack gap={4}>
                {current.contrastWarnings.map((w) => (
                  <Text size="sm" key={w}>
                    {w}
                  </Text>
                ))}
              </Stack>
            </Alert>
          )}
          <Text size="xs" c="dimmed" mt="sm">
            The fonts are embedded in every print file. Names in other scripts (Cyrillic, Vietnamese, Chinese…) fall
            back to Noto Sans and Noto Sans SC.
          </Text>
        </Paper>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="md">
            Return address
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Street address" {...form.getInputProps("addressLine1")} />
            <TextInput label="Address line 2" description="Optional" {...form.getInputProps("addressLine2")} />
            <TextInput label="City" {...form.getInputProps("city")} />
            <TextInput
              label="State or region"
              description="Optional outside the US, Canada and Australia"
              {...form.getInputProps("region")}
            />
            <TextInput label="Postal code" {...form.getInputProps("postalCode")} />
            <TextInput
              label="Country"
              description="Two-letter code, like US"
              maxLength={2}
              {...form.getInputProps("country")}
            />
          </SimpleGrid>
        </Paper>
        <Group justify="flex-end">
          <IfCan action="prepare">
            <Button type="submit" loading={update.isPending}>
              Save brand kit
            </Button>
          </IfCan>
        </Group>
      </Stack>
    </form>
  );
}
