"use client";

import "@mantine/dropzone/styles.css";
import { Alert, Anchor, Button, Group, Progress, Stack, Text, Title } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import { IconFileSpreadsheet, IconUpload, IconX } from "@tabler/icons-react";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { TUploadResult } from "@/server/programme/imports/upload";
import { useTRPC } from "@/trpc/react";
import { MappingStep } from "./mapping-step";
import { discardUploadOnLeave, uploadCsv } from "./upload";

const MAX_BYTES = 50 * 1024 * 1024;
const ACCEPT = {
  "text/csv": [".csv"],
  "text/tab-separated-values": [".tsv"],
  "text/plain": [".txt", ".csv"],
  "application/vnd.ms-excel": [".csv"],
};

/** Import contacts from a CSV file: drop it, check the mapping, import. The import's page then shows its progress and report. */
export function ImportWizard({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [upload, setUpload] = useState<TUploadResult | null>(null);
  const abort = useRef<(() => void) | null>(null);
  // The upload on screen while its import is not started: this wizard's to discard if the person
  // chooses another file or leaves, so no upload is left behind as an import that never was.
  const unstarted = useRef<{ workspaceId: string; importId: string } | null>(null);
  const leftWith = useRef(false);
  const discard = useMutation(trpc.contactImport.discard.mutationOptions());

  useEffect(() => {
    const leave = () => {
      if (!unstarted.current) return;
      discardUploadOnLeave(unstarted.current.workspaceId, unstarted.current.importId);
      unstarted.current = null;
      leftWith.current = true;
    };
    // Back to this page from the browser's cache: the file it showed was discarded on the way out.
    const back = (e: PageTransitionEvent) => {
      if (!e.persisted || !leftWith.current) return;
      leftWith.current = false;
      setUpload(null);
      setNotice(
        "The file you had chosen was discarded when you left this page, before it was imported. Choose it again to import it.",
      );
    };
    window.addEventListener("pagehide", leave);
    window.addEventListener("pageshow", back);
    return () => {
      window.removeEventListener("pagehide", leave);
      window.removeEventListener("pageshow", back);
      // Leaving for another page of the app: an upload still on its way is stopped (the server keeps
      // nothing of it), and one on screen is discarded.
      abort.current?.();
      leave();
    };
  }, []);

  /** "Choose another file": the previous upload, never imported, is discarded first. */
  const chooseAnother = () => {
    const previous = unstarted.current;
    unstarted.current = null;
    setUpload(null);
    setNotice(null);
    if (previous) {
      discard.mutate(previous, {
        onError: (e) =>
          notifications.show({
            color: "red",
            title: "The previous file was not discarded",
            message: `${e.message} It is listed on the Imports page, where you can discard it.`,
          }),
      });
    }
  };

  const send = async (file: File) => {
    setError(null);
    setNotice(null);
    setProgress(0);
    const job = uploadCsv(workspaceId, file, setProgress);
    abort.current = job.abort;
    try {
      const result = await job.promise;
      unstarted.current = { workspaceId, importId: result.importId };
      setUpload(result);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };
  const rejected = (files: FileRejection[]) => {
    const f = files[0];
    const code = f?.errors[0]?.code;
    setError(
      code === "file-too-large"
        ? `${f.file.name} is larger than 50 MB. Split it into smaller files.`
        : code === "file-invalid-type"
          ? `${f?.file.name} is not a CSV file. Save or export it as CSV and try again.`
          : "Drop one CSV file.",
    );
  };

  return (
    <Stack gap="md" maw={1000}>
      <div>
        <Anchor component={Link} href={`/w/${workspaceId}/contacts`} size="sm">
          Contacts
        </Anchor>
        <Title order={1} size="h2" mt={4}>
          Import contacts from CSV
        </Title>
      </div>
      {upload ? (
        <MappingStep
          workspaceId={workspaceId}
          upload={upload}
          onCancel={chooseAnother}
          // Once its start is asked for, the upload is the import's: leaving the page then must not discard it.
          onStarting={() => (unstarted.current = null)}
          onStartFailed={() => (unstarted.current = { workspaceId, importId: upload.importId })}
        />
      ) : (
        <>
          <Dropzone
            onDrop={(files) => files[0] && send(files[0])}
            onReject={rejected}
            maxSize={MAX_BYTES}
            maxFiles={1}
            multiple={false}
            accept={ACCEPT}
            loading={progress !== null}
            aria-label="Drop a CSV file here, or press Enter to choose one"
          >
            <Group justify="center" gap="xl" mih={180} style={{ pointerEvents: "none" }}>
              <Dropzone.Accept>
                <IconUpload size={48} stroke={1.5} aria-hidden />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={48} stroke={1.5} aria-hidden />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileSpreadsheet size={48} stroke={1.5} aria-hidden />
              </Dropzone.Idle>
              <div>
                <Text size="lg" inline>
                  Drop a CSV file here, or click to choose one
                </Text>
                <Text size="sm" c="dimmed" inline mt={7} component="p">
                  Up to 50 MB and 200,000 rows; comma, semicolon or tab separated; UTF-8 or Windows-1252. The first row
                  names the columns.
                </Text>
              </div>
            </Group>
          </Dropzone>
          {progress !== null && (
            <Stack gap={4}>
              <Progress value={progress * 100} animated aria-label={`Uploading: ${Math.round(progress * 100)}%`} />
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : "Reading the file…"}
                </Text>
                <Button size="xs" variant="subtle" color="red" onClick={() => abort.current?.()}>
                  Stop
                </Button>
              </Group>
            </Stack>
          )}
          {error && (
            <Alert color="red" title="The file was not imported" role="alert">
              {error}
            </Alert>
          )}
          {notice && (
            <Alert color="gray" role="status">
              {notice}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            Export from your CRM or spreadsheet with one contact per row: names, email, company, job title, postal
            address. You will see how each column is read before anything is imported, and the import can be cancelled
            while it runs.
          </Text>
        </>
      )}
    </Stack>
  );
}
