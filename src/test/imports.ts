import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import type { TColumnTarget } from "@/server/records/contacts/csv-headers";
import { startImport } from "@/server/programme/imports/service";
import { receiveUpload } from "@/server/programme/imports/upload";
import { drainJobs } from "./jobs";

export const testActor: Actor = { kind: "user", id: null, label: "tester@example.test" };

/** The bytes of a string, delivered in pieces of `size` bytes (as a browser's upload arrives). */
export async function* bytesOf(content: string | Uint8Array, size = 7919) {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  for (let i = 0; i < bytes.byteLength; i += size) yield bytes.subarray(i, i + size);
}

/** Uploads a CSV, starts it with the suggested mapping (changed by `mapping`), and runs the job to its end. */
export async function importCsv(
  prisma: PrismaClient,
  p: {
    workspaceId: string;
    csv: string | Uint8Array;
    fileName?: string;
    onExisting?: "update" | "skip";
    mapping?: (suggested: TColumnTarget[], columns: string[]) => TColumnTarget[];
    audienceName?: string;
    audienceId?: string;
    run?: boolean;
  },
) {
  const upload = await receiveUpload(prisma, {
    workspaceId: p.workspaceId,
    fileName: p.fileName ?? "people.csv",
    body: bytesOf(p.csv),
    actor: testActor,
  });
  const mapping = p.mapping ? p.mapping(upload.suggestedMapping, upload.columns) : upload.suggestedMapping;
  const started = await startImport(prisma, {
    workspaceId: p.workspaceId,
    importId: upload.importId,
    mapping,
    onExisting: p.onExisting ?? "update",
    audienceName: p.audienceName,
    audienceId: p.audienceId,
    actor: testActor,
  });
  const outcomes = p.run === false ? [] : await drainJobs(prisma, { workspaceId: p.workspaceId });
  return { upload, started, outcomes, importId: upload.importId };
}
