"use client";

import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconFileSpreadsheet } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { reasonLabels } from "@/components/contacts/labels";
import { formatNumber } from "@/components/ui/format";
import { FIELD_MAX } from "@/server/records/contacts/limits";
import { useTRPC } from "@/trpc/react";

const REASONS = ["opt-out", "customer", "competitor", "do-not-mail", "bounced"] as const;
type Reason = (typeof REASONS)[number];
const reasonData = REASONS.map((r) => ({ value: r, label: reasonLabels[r] }));

type AddValues = {
  kind: "email" | "domain" | "address";
  value: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  reason: Reason;
};
const blankEntry: AddValues = {
  kind: "email",
  value: "",
  addressLine1: "",
  addressLine2: "",
  city: "",
  region: "",
  postalCode: "",
  country: "",
  reason: "opt-out",
};
const longest = (max: number) => (v: string) => (v.trim().length > max ? `At most ${max} characters.` : null);
const addressRule = (max: number, required?: string) => (v: string, values: AddValues) =>
  values.kind !== "address" ? null : required && !v.trim() ? required : longest(max)(v);

/**
 * Add one email, domain or address to the suppression list: a form, so Enter adds it; what the
 * service refuses (not an email, not a country) shows on its field.
 */
export function AddSuppressionModal({
  workspaceId,
  opened,
  onClose,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A refusal no field takes: shown above the buttons until the entry changes.
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<AddValues>({
    initialValues: blankEntry,
    onValuesChange: () => setRefusal(null),
    validate: {
      value: (v, values) =>
        values.kind === "address"
          ? null
          : !v.trim()
            ? values.kind === "email"
              ? "Enter the email address."
              : "Enter the domain."
            : longest(values.kind === "email" ? FIELD_MAX.email : FIELD_MAX.website)(v),
      addressLine1: addressRule(FIELD_MAX.addressLine1, "Enter the street address."),
      addressLine2: addressRule(FIELD_MAX.addressLine2),
      city: addressRule(FIELD_MAX.city),
      region: addressRule(FIELD_MAX.region),
      postalCode: addressRule(FIELD_MAX.postalCode),
      country: addressRule(FIELD_MAX.country, "Enter the country."),
    },
  });
  const close = () => {
    form.reset();
    setRefusal(null);
    onClose();
  };
  const add = useMutation(
    trpc.suppression.add.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.suppression.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        close();
      },
      onError: (err) => {
        // The one entry's refusal lands on its field ("/entries/0/email", "/entries/0/address/country"); anything else stays above the buttons.
        const fields =
          (err.data as { fieldErrors?: { pointer?: string; detail: string }[] | null } | undefined)?.fieldErrors ?? [];
        let placed = false;
        for (const f of fields) {
          const field = f.pointer?.replace(/^\/entries\/0\//, "").replace(/^address\//, "");
          const name = field === "email" || field === "domain" ? "value" : field;
          if (name && name !== "kind" && name !== "reason" && name in blankEntry) {
            form.setFieldError(name, f.detail);
            placed = true;
          }
        }
        if (!placed) setRefusal(err.message);
      },
    }),
  );
  const submit = form.onSubmit((v) => {
    const entry =
      v.kind === "address"
        ? {
            address: {
              addressLine1: v.addressLine1,
              addressLine2: v.addressLine2 || null,
              city: v.city || null,
              region: v.region || null,
              postalCode: v.postalCode || null,
              country: v.country,
            },
            reason: v.reason,
          }
        : { [v.kind]: v.value.trim(), reason: v.reason };
    add.mutate({ workspaceId, entries: [entry] });
  });
  return (
    <Modal opened={opened} onClose={close} title="Add to the suppression list">
      <form onSubmit={submit} noValidate>
        <Stack>
          <SegmentedControl
            aria-label="What to suppress"
            value={form.values.kind}
            onChange={(v) => {
              form.setFieldValue("kind", v as AddValues["kind"]);
              form.clearErrors();
            }}
            data={[
              { value: "email", label: "Email" },
              { value: "domain", label: "Domain" },
              { value: "address", label: "Address" },
            ]}
          />
          {form.values.kind === "email" && (
            <TextInput
              label="Email"
              placeholder="jane@acme.com"
              required
              data-autofocus
              {...form.getInputProps("value")}
            />
          )}
          {form.values.kind === "domain" && (
            <TextInput
              label="Domain"
              description="Every contact with an email there, and every account with this domain."
              placeholder="competitor.com"
              required
              {...form.getInputProps("value")}
            />
          )}
          {form.values.kind === "address" && (
            <>
              <TextInput label="Address line 1" required {...form.getInputProps("addressLine1")} />
              <TextInput label="Address line 2" {...form.getInputProps("addressLine2")} />
              <SimpleGrid cols={2}>
                <TextInput label="City" {...form.getInputProps("city")} />
                <TextInput label="Postal code" {...form.getInputProps("postalCode")} />
                <TextInput label="State / region" {...form.getInputProps("region")} />
                <TextInput label="Country" required {...form.getInputProps("country")} />
              </SimpleGrid>
            </>
          )}
          <Select label="Reason" data={reasonData} allowDeselect={false} {...form.getInputProps("reason")} />
          {refusal && <Alert color="red">{refusal}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Suppress
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A suppression list from a CSV file (emails, domains or addresses, with a reason column or a default reason). */
export function ImportSuppressionsModal({
  workspaceId,
  opened,
  onClose,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [reason, setReason] = useState<Reason>("do-not-mail");
  const [readError, setReadError] = useState<string | null>(null);
  const run = useMutation(
    trpc.suppression.importCsv.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.suppression.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
      },
    }),
  );
  const close = () => {
    setFile(null);
    run.reset();
    setReadError(null);
    onClose();
  };
  const submit = async () => {
    if (!file) return;
    if (file.size > 5 * 1024 * 1024) return setReadError("The file is larger than 5 MB; split it.");
    setReadError(null);
    run.mutate({ workspaceId, csv: await file.text(), defaultReason: reason });
  };
  const report = run.data;
  return (
    <Modal opened={opened} onClose={close} title="Import a suppression list" size="lg">
      <Stack>
        <Text size="sm">
          A CSV with an email, a domain (website) or a street address per row. A column named reason (opt-out, customer,
          competitor, do-not-mail, bounced) sets each row&apos;s reason; rows without one get the reason below. At most
          50,000 rows and 5 MB a file.
        </Text>
        <FileInput
          label="CSV file"
          placeholder="suppressions.csv"
          accept=".csv,text/csv,.txt"
          leftSection={<IconFileSpreadsheet size={16} />}
          value={file}
          onChange={setFile}
          clearable
        />
        <Select
          label="Reason for rows without one"
          data={reasonData}
          value={reason}
          onChange={(v) => v && setReason(v as Reason)}
          allowDeselect={false}
        />
        {(readError || run.error) && <Alert color="red">{readError ?? run.error?.message}</Alert>}
        {report && (
          <Alert
            color={report.refused.length ? "yellow" : "teal"}
            title={`${formatNumber(report.added)} added, ${formatNumber(report.alreadySuppressed)} already on the list, ${formatNumber(report.refused.length)} refused`}
          >
            {report.refused.length > 0 && (
              <List size="sm">
                {report.refused.slice(0, 10).map((r) => (
                  <List.Item key={r.row}>
                    Row {r.row}
                    {r.column ? ` (${r.column})` : ""}: {r.reason}
                  </List.Item>
                ))}
                {report.refused.length > 10 && <List.Item>… and {report.refused.length - 10} more</List.Item>}
              </List>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {report ? "Done" : "Cancel"}
          </Button>
          <Button onClick={submit} disabled={!file} loading={run.isPending}>
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
