"use client";

import { Alert, Button, FileInput, Group, List, Modal, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { IconFileSpreadsheet } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { reasonLabels } from "@/components/contacts/labels";
import { formatNumber } from "@/components/ui/format";
import { useTRPC } from "@/trpc/react";

const REASONS = ["opt-out", "customer", "competitor", "do-not-mail", "bounced"] as const;
type Reason = (typeof REASONS)[number];
const reasonData = REASONS.map((r) => ({ value: r, label: reasonLabels[r] }));

/** Add one email, domain or address to the suppression list. */
export function AddSuppressionModal({ workspaceId, opened, onClose }: { workspaceId: string; opened: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<"email" | "domain" | "address">("email");
  const [value, setValue] = useState("");
  const [address, setAddress] = useState({ addressLine1: "", addressLine2: "", city: "", region: "", postalCode: "", country: "" });
  const [reason, setReason] = useState<Reason>("opt-out");
  const add = useMutation(
    trpc.suppression.add.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.suppression.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.contact.pathKey() });
        setValue("");
        onClose();
      },
    }),
  );
  const submit = () => {
    const entry =
      kind === "address"
        ? { address: { ...address, addressLine2: address.addressLine2 || null, city: address.city || null, region: address.region || null, postalCode: address.postalCode || null }, reason }
        : { [kind]: value, reason };
    add.mutate({ workspaceId, entries: [entry] });
  };
  const set = (k: keyof typeof address) => (e: React.ChangeEvent<HTMLInputElement>) => setAddress({ ...address, [k]: e.currentTarget.value });
  return (
    <Modal opened={opened} onClose={onClose} title="Add to the suppression list">
      <Stack>
        <SegmentedControl
          aria-label="What to suppress"
          value={kind}
          onChange={(v) => setKind(v as typeof kind)}
          data={[
            { value: "email", label: "Email" },
            { value: "domain", label: "Domain" },
            { value: "address", label: "Address" },
          ]}
        />
        {kind === "email" && <TextInput label="Email" placeholder="jane@acme.com" value={value} onChange={(e) => setValue(e.currentTarget.value)} maxLength={254} />}
        {kind === "domain" && <TextInput label="Domain" description="Every contact with an email there, and every account with this domain." placeholder="competitor.com" value={value} onChange={(e) => setValue(e.currentTarget.value)} maxLength={253} />}
        {kind === "address" && (
          <>
            <TextInput label="Address line 1" value={address.addressLine1} onChange={set("addressLine1")} maxLength={200} />
            <TextInput label="Address line 2" value={address.addressLine2} onChange={set("addressLine2")} maxLength={200} />
            <SimpleGrid cols={2}>
              <TextInput label="City" value={address.city} onChange={set("city")} maxLength={100} />
              <TextInput label="Postal code" value={address.postalCode} onChange={set("postalCode")} maxLength={20} />
              <TextInput label="State / region" value={address.region} onChange={set("region")} maxLength={100} />
              <TextInput label="Country" value={address.country} onChange={set("country")} maxLength={100} />
            </SimpleGrid>
          </>
        )}
        <Select label="Reason" data={reasonData} value={reason} onChange={(v) => v && setReason(v as Reason)} allowDeselect={false} />
        {add.error && <Alert color="red">{add.error.message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={add.isPending} onClick={submit} disabled={kind === "address" ? !address.addressLine1 || !address.country : !value.trim()}>
            Suppress
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A suppression list from a CSV file (emails, domains or addresses, with a reason column or a default reason). */
export function ImportSuppressionsModal({ workspaceId, opened, onClose }: { workspaceId: string; opened: boolean; onClose: () => void }) {
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
          A CSV with an email, a domain (website) or a street address per row. A column named reason (opt-out, customer, competitor, do-not-mail,
          bounced) sets each row&apos;s reason; rows without one get the reason below. At most 50,000 rows and 5 MB a file.
        </Text>
        <FileInput label="CSV file" placeholder="suppressions.csv" accept=".csv,text/csv,.txt" leftSection={<IconFileSpreadsheet size={16} />} value={file} onChange={setFile} clearable />
        <Select label="Reason for rows without one" data={reasonData} value={reason} onChange={(v) => v && setReason(v as Reason)} allowDeselect={false} />
        {(readError || run.error) && <Alert color="red">{readError ?? run.error?.message}</Alert>}
        {report && (
          <Alert color={report.refused.length ? "yellow" : "teal"} title={`${formatNumber(report.added)} added, ${formatNumber(report.alreadySuppressed)} already on the list, ${formatNumber(report.refused.length)} refused`}>
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
