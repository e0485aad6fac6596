"use client";

import {
  Alert,
  Button,
  Code,
  Group,
  List,
  Paper,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { formatCount } from "@/components/ui/format";
import { schemaRule } from "@/components/ui/name-modal";
import { ZAudienceName } from "@/server/records/audiences/schema";
import {
  CONTACT_FIELDS,
  FIELD_LABELS,
  mappingProblems,
  type TColumnTarget,
} from "@/server/records/contacts/csv-headers";
import type { TUploadResult } from "@/server/programme/imports/upload";
import { useTRPC } from "@/trpc/react";

const delimiterNames: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };

/** Step 2 of an import: each column's field (proposed from its header), shown with its first values; existing contacts; the audience. */
/**
 * `onStarting` runs as the import is asked to start (the upload is no longer the wizard's to
 * discard, even if the person leaves before the answer), `onStartFailed` when the start was refused
 * (nothing was started: the upload is the wizard's again).
 */
export function MappingStep({
  workspaceId,
  upload,
  onCancel,
  onStarting,
  onStartFailed,
}: {
  workspaceId: string;
  upload: TUploadResult;
  onCancel: () => void;
  onStarting?: () => void;
  onStartFailed?: () => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [mapping, setMapping] = useState<TColumnTarget[]>(upload.suggestedMapping);
  const [onExisting, setOnExisting] = useState<"update" | "skip">("update");
  const [audienceMode, setAudienceMode] = useState<"new" | "existing">("new");
  const [audienceName, setAudienceName] = useState(upload.fileName.replace(/\.(csv|tsv|txt)$/i, ""));
  const [audienceId, setAudienceId] = useState<string | null>(null);
  // Said on the field the import waits for (its button is off until then), not left to guess.
  const audienceNameError = audienceMode === "new" ? schemaRule(ZAudienceName)(audienceName) : null;
  const [audienceTouched, setAudienceTouched] = useState(false);
  const audiences = useQuery(trpc.audience.list.queryOptions({ workspaceId }));
  const start = useMutation(
    trpc.contactImport.start.mutationOptions({
      onMutate: () => onStarting?.(),
      onError: () => onStartFailed?.(),
      onSuccess: (v) => router.push(`/w/${workspaceId}/imports/${v.importId}`),
    }),
  );
  const problems = useMemo(() => mappingProblems(mapping, upload.columns), [mapping, upload.columns]);
  const mapped = mapping.filter((m) => m !== "ignore").length;

  const optionsFor = (column: string, i: number) => {
    // The proposed custom field may be named apart from the header ("Notes (2)" beside another "Notes").
    const proposed = upload.suggestedMapping[i];
    const names = [
      ...new Set(
        [proposed?.startsWith("custom:") ? proposed.slice(7) : null, column].filter((n): n is string => Boolean(n)),
      ),
    ];
    return [
      { group: "Contact fields", items: CONTACT_FIELDS.map((f) => ({ value: f, label: FIELD_LABELS[f] })) },
      {
        group: "Other",
        items: [
          ...names.map((n) => ({ value: `custom:${n}`, label: `Custom field “${n}”` })),
          { value: "ignore", label: "Don't import" },
        ],
      },
    ];
  };
  const narrow = useMediaQuery("(max-width: 40em)");
  const fieldSelect = (column: string, i: number) => (
    <Select
      aria-label={`Field for the column ${column}`}
      data={optionsFor(column, i)}
      value={mapping[i]}
      onChange={(v) => v && setMapping(mapping.map((m, j) => (j === i ? (v as TColumnTarget) : m)))}
      allowDeselect={false}
      searchable
      comboboxProps={{ withinPortal: true }}
    />
  );
  const samples = (i: number) =>
    upload.sample
      .map((r) => r[i] ?? "")
      .filter((v) => v.trim())
      .slice(0, 3);

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Text fw={600}>{upload.fileName}</Text>
        <Text size="sm" c="dimmed">
          {formatCount(upload.rows, "row")} · {formatCount(upload.columns.length, "column")} ·{" "}
          {upload.encoding === "windows-1252" ? "Windows-1252 (Western European)" : upload.encoding.toUpperCase()} ·
          separated by {delimiterNames[upload.delimiter] ?? upload.delimiter}
        </Text>
      </Paper>

      <div>
        <Title order={2} size="h4">
          Columns
        </Title>
        <Text size="sm" c="dimmed">
          Each column fills one field. We proposed the ones we recognised; the others are kept as custom fields, which
          become merge fields in copy. Change any of them, or choose “Don't import” for a column you do not want kept.
        </Text>
      </div>
      {narrow ? (
        // On a phone each column is a card, so its field is in reach without scrolling a table sideways.
        <Stack gap="xs">
          {upload.columns.map((column, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a CSV may repeat a column name; its place tells the two apart.
            <Paper key={`${i}-${column}`} withBorder p="sm">
              <Text fw={600} size="sm">
                {column}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={2} mb={6}>
                {samples(i).length ? samples(i).join(" · ") : "empty in the first rows"}
              </Text>
              {fieldSelect(column, i)}
            </Paper>
          ))}
        </Stack>
      ) : (
        <DataTable
          minWidth={640}
          head={
            <>
              <Table.Th>Column in the file</Table.Th>
              <Table.Th>First values</Table.Th>
              <Table.Th w={300}>Imported as</Table.Th>
            </>
          }
        >
          {upload.columns.map((column, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a CSV may repeat a column name; its place tells the two apart.
            <Table.Tr key={`${i}-${column}`}>
              <Table.Td fw={600}>{column}</Table.Td>
              <Table.Td>
                <Text size="sm" c={samples(i).length ? undefined : "dimmed"} lineClamp={2}>
                  {samples(i).length ? samples(i).join(" · ") : "empty in the first rows"}
                </Text>
              </Table.Td>
              <Table.Td>{fieldSelect(column, i)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {problems.length > 0 && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Fix the mapping first">
          <List size="sm">
            {problems.map((p) => (
              <List.Item key={p}>{p}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      <Radio.Group
        label="Contacts already in the workspace"
        description="A row is the same person as a contact when the email matches (any case), else the CRM id, else the name and postal address."
        value={onExisting}
        onChange={(v) => setOnExisting(v as "update" | "skip")}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="update" label="Update them with the file's values (empty cells change nothing)" />
          <Radio value="skip" label="Leave them as they are" />
        </Stack>
      </Radio.Group>

      <Radio.Group
        label="Audience"
        description="Every contact of the file lands in this audience, ready for a campaign."
        value={audienceMode}
        onChange={(v) => setAudienceMode(v as "new" | "existing")}
      >
        <Group mt="xs">
          <Radio value="new" label="A new audience" />
          <Radio value="existing" label="An existing audience" disabled={!audiences.data?.length} />
        </Group>
      </Radio.Group>
      {audienceMode === "new" ? (
        <TextInput
          label="Audience name"
          required
          value={audienceName}
          onChange={(e) => setAudienceName(e.currentTarget.value)}
          error={audienceNameError}
          maw={420}
        />
      ) : (
        <Select
          label="Existing audience"
          placeholder="Choose an audience"
          required
          searchable
          data={(audiences.data ?? []).map((a) => ({
            value: a.id,
            label: `${a.name} (${formatCount(a.members, "contact")})`,
          }))}
          value={audienceId}
          onChange={setAudienceId}
          onBlur={() => setAudienceTouched(true)}
          error={audienceTouched && !audienceId ? "Choose the audience the contacts land in." : null}
          maw={420}
        />
      )}

      {start.error && <Alert color="red">{start.error.message}</Alert>}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {mapped} of {formatCount(upload.columns.length, "column")} imported. Rows without a name and an email are
          refused and reported; nothing of them is written.
        </Text>
        <Group>
          <Button variant="default" onClick={onCancel} disabled={start.isPending}>
            Choose another file
          </Button>
          <Button
            loading={start.isPending}
            disabled={problems.length > 0 || (audienceMode === "new" ? Boolean(audienceNameError) : !audienceId)}
            onClick={() =>
              start.mutate({
                workspaceId,
                importId: upload.importId,
                mapping,
                onExisting,
                ...(audienceMode === "new" ? { audienceName: audienceName.trim() } : { audienceId: audienceId! }),
              })
            }
          >
            Import {formatCount(upload.rows, "row")}
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed">
        Headers we recognise include <Code>First Name</Code>, <Code>given_name</Code>, <Code>Email Address</Code>,{" "}
        <Code>Company Name</Code>, <Code>Website</Code>, <Code>Street Address 2</Code>, <Code>Zip/Postal Code</Code>,{" "}
        <Code>State/Province</Code> and <Code>Country</Code> (names and codes such as United States, USA, UK,
        Deutschland, de), and the exports of HubSpot, Salesforce, Pipedrive and Apollo.
      </Text>
    </Stack>
  );
}
