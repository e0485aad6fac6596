"use client";

import { Alert, Button, Code, FileInput, Group, List, Modal, Stack, Text } from "@mantine/core";
import { IconFileSpreadsheet } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Papa from "papaparse";
import { useState } from "react";
import { type OutcomeCsvRow, toOutcomeRows } from "@/server/programme/holdouts/outcomes-csv";
import { useTRPC } from "@/trpc/react";

type CsvRow = OutcomeCsvRow;
export { toOutcomeRows };

export function ImportOutcomesModal({
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
  const [parseError, setParseError] = useState<string | null>(null);
  const importRows = useMutation(
    trpc.results.importOutcomes.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.results.pathKey() }),
    }),
  );

  const submit = () => {
    if (!file) return;
    setParseError(null);
    Papa.parse<CsvRow>(file, {
      header: true,
      skipEmptyLines: true,
      transformHeader: (h) => h.trim().toLowerCase(),
      complete: (parsed) => {
        if (
          !parsed.meta.fields?.includes("account") ||
          !parsed.meta.fields.includes("kind") ||
          !parsed.meta.fields.includes("at")
        ) {
          setParseError("The file needs the columns account, kind and at (amount and external_id are optional).");
          return;
        }
        importRows.mutate({ workspaceId, rows: toOutcomeRows(parsed.data), source: "csv" });
      },
      error: (err) => setParseError(err.message),
    });
  };
  const close = () => {
    setFile(null);
    importRows.reset();
    setParseError(null);
    onClose();
  };
  const report = importRows.data;

  return (
    <Modal opened={opened} onClose={close} title="Import outcomes" size="lg">
      <Stack>
        <Text size="sm">
          Outcomes from your CRM, for every account: treated and held out alike. That is what lift is measured on;
          response-link reports only cover the accounts that got mail.
        </Text>
        <Text size="sm">
          Columns: <Code>account</Code> (domain or CRM id), <Code>kind</Code> (reply, meeting_booked,
          opportunity_created, signup, trial_started, purchase, pipeline_dollars, closed_won), <Code>at</Code> (date),{" "}
          <Code>amount</Code> (dollars, for money kinds), <Code>external_id</Code> (optional, one per occurrence). A
          file with a bad row imports nothing, and every bad row is listed; importing the same file again changes
          nothing.
        </Text>
        <FileInput
          label="CSV file"
          placeholder="outcomes.csv"
          accept=".csv,text/csv"
          leftSection={<IconFileSpreadsheet size={16} />}
          value={file}
          onChange={setFile}
          clearable
        />
        {parseError && <Alert color="red">{parseError}</Alert>}
        {importRows.error && <Alert color="red">{importRows.error.message}</Alert>}
        {report && (
          <Alert
            color={report.errors.length ? "red" : "teal"}
            title={
              report.errors.length
                ? `Nothing was imported: ${report.errors.length === 1 ? "1 row has an error" : `${report.errors.length} rows have errors`}`
                : `${report.created} recorded, ${report.unchanged} already there`
            }
          >
            {report.errors.length > 0 && (
              <Text size="sm">Fix these rows in the file and import it again; the other rows are fine.</Text>
            )}
            {report.errors.length > 0 && (
              <List size="sm" mt="xs">
                {report.errors.slice(0, 10).map((e) => (
                  <List.Item key={e.row}>
                    Row {e.row}: {e.message}
                  </List.Item>
                ))}
                {report.errors.length > 10 && <List.Item>… and {report.errors.length - 10} more</List.Item>}
              </List>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {report ? "Done" : "Cancel"}
          </Button>
          <Button onClick={submit} disabled={!file} loading={importRows.isPending}>
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
