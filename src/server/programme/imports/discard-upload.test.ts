import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { callerFor, createOwnerWorkspace } from "@/test/factories";
import { bytesOf, importCsv, testActor } from "@/test/imports";
import {
  discardUpload,
  getImport,
  listImports,
  listUnstartedUploads,
  MAX_LISTED_UPLOADS,
  STARTED_IMPORT_NOT_DISCARDED,
  startImport,
} from "./service";
import { receiveUpload } from "./upload";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const CSV = [
  "First Name,Last Name,Email",
  ...Array.from({ length: 10 }, (_, i) => `P${i},Person,p${i}@example.test`),
].join("\n");

/** A file uploaded and never imported (the wizard's first step only). */
const upload = (workspaceId: string, fileName = "contacts.csv") =>
  receiveUpload(prisma, { workspaceId, fileName, body: bytesOf(CSV), actor: testActor });

/** What an import leaves in the database, to show that a refused discard deleted none of it. */
async function footprint(workspaceId: string, importId: string) {
  const [imports, chunks, jobs, contacts, audiences, discarded] = await Promise.all([
    prisma.contactImport.count({ where: { id: importId } }),
    prisma.contactImportChunk.count({ where: { importId } }),
    prisma.job.count({ where: { workspaceId, kind: "contacts_import" } }),
    prisma.contact.count({ where: { workspaceId } }),
    prisma.audience.count({ where: { workspaceId } }),
    prisma.auditLogEntry.count({ where: { workspaceId, action: "contacts.import.discarded" } }),
  ]);
  return { imports, chunks, jobs, contacts, audiences, discarded };
}

describe("discarding an upload that was never imported", () => {
  it("deletes the import and its kept file, says so in the audit log, and writes no contact", async () => {
    const o = await createOwnerWorkspace(prisma);
    const file = await upload(o.workspaceId);
    expect(await prisma.contactImportChunk.count({ where: { importId: file.importId } })).toBeGreaterThan(0);

    const owner = await callerFor(prisma, o.user);
    expect(await owner.contactImport.discard({ workspaceId: o.workspaceId, importId: file.importId })).toEqual({
      importId: file.importId,
      fileName: "contacts.csv",
      discarded: true,
    });

    expect(await footprint(o.workspaceId, file.importId)).toEqual({
      imports: 0,
      chunks: 0,
      jobs: 0,
      contacts: 0,
      audiences: 0,
      discarded: 1,
    });
    expect(
      await prisma.auditLogEntry.findFirstOrThrow({
        where: { workspaceId: o.workspaceId, action: "contacts.import.discarded" },
      }),
    ).toMatchObject({
      actorId: o.user.id,
      targetType: "import",
      targetId: file.importId,
      data: { fileName: "contacts.csv", rows: 10 },
    });
    // Gone: neither listed, nor readable, nor startable, nor discarded twice.
    expect((await listUnstartedUploads(prisma, { workspaceId: o.workspaceId })).total).toBe(0);
    await expect(getImport(prisma, { workspaceId: o.workspaceId, importId: file.importId })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      startImport(prisma, {
        workspaceId: o.workspaceId,
        importId: file.importId,
        mapping: file.suggestedMapping,
        onExisting: "update",
        actor: testActor,
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      owner.contactImport.discard({ workspaceId: o.workspaceId, importId: file.importId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "No such import in this workspace." });
  });

  it("refuses an import that has started, queued or finished, with its reason, and deletes nothing of it", async () => {
    const o = await createOwnerWorkspace(prisma);
    const owner = await callerFor(prisma, o.user);
    for (const run of [false, true]) {
      const started = await importCsv(prisma, {
        workspaceId: o.workspaceId,
        csv: CSV,
        fileName: `started-${run}.csv`,
        run,
      });
      expect((await getImport(prisma, { workspaceId: o.workspaceId, importId: started.importId })).status).toBe(
        run ? "succeeded" : "queued",
      );
      const before = await footprint(o.workspaceId, started.importId);
      expect(before.imports).toBe(1);
      await expect(
        discardUpload(prisma, { workspaceId: o.workspaceId, importId: started.importId, actor: testActor }),
      ).rejects.toMatchObject({ code: "invalid_state", message: STARTED_IMPORT_NOT_DISCARDED });
      await expect(
        owner.contactImport.discard({ workspaceId: o.workspaceId, importId: started.importId }),
      ).rejects.toMatchObject({ code: "CONFLICT", message: STARTED_IMPORT_NOT_DISCARDED });
      expect(await footprint(o.workspaceId, started.importId)).toEqual(before);
    }
    expect(STARTED_IMPORT_NOT_DISCARDED).toBe(
      "This import has started, so it cannot be discarded: its report is the record of the contacts it wrote. Only a file that was uploaded and never imported can be discarded.",
    );
  });

  it("another workspace's upload is not found, through the service and the owner's API, and stays", async () => {
    const mine = await createOwnerWorkspace(prisma);
    const theirs = await createOwnerWorkspace(prisma);
    const file = await upload(theirs.workspaceId);
    const before = await footprint(theirs.workspaceId, file.importId);

    await expect(
      discardUpload(prisma, { workspaceId: mine.workspaceId, importId: file.importId, actor: testActor }),
    ).rejects.toMatchObject({ code: "not_found", message: "No such import in this workspace." });
    const me = await callerFor(prisma, mine.user);
    await expect(
      me.contactImport.discard({ workspaceId: mine.workspaceId, importId: file.importId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "No such import in this workspace." });
    // Naming their workspace: not an owner of it.
    await expect(
      me.contactImport.discard({ workspaceId: theirs.workspaceId, importId: file.importId }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(NOT_FOUND|FORBIDDEN)$/) });
    await expect(
      discardUpload(prisma, { workspaceId: mine.workspaceId, importId: "imp_doesnotexist", actor: testActor }),
    ).rejects.toMatchObject({ code: "not_found", message: "No such import in this workspace." });

    expect(await footprint(theirs.workspaceId, file.importId)).toEqual(before);
    expect(before).toMatchObject({ imports: 1, chunks: expect.any(Number) });
    expect(before.chunks).toBeGreaterThan(0);
    expect(
      await prisma.auditLogEntry.count({
        where: { workspaceId: mine.workspaceId, action: "contacts.import.discarded" },
      }),
    ).toBe(0);
  });

  it("a start and a discard of the same upload at the same moment: one of them wins, never half of both", async () => {
    const o = await createOwnerWorkspace(prisma);
    const file = await upload(o.workspaceId);
    const [start, discard] = await Promise.allSettled([
      startImport(prisma, {
        workspaceId: o.workspaceId,
        importId: file.importId,
        mapping: file.suggestedMapping,
        onExisting: "update",
        audienceName: "Raced",
        actor: testActor,
      }),
      discardUpload(prisma, { workspaceId: o.workspaceId, importId: file.importId, actor: testActor }),
    ]);
    expect([start.status, discard.status].sort()).toEqual(["fulfilled", "rejected"]);
    const after = await footprint(o.workspaceId, file.importId);
    if (start.status === "fulfilled") {
      expect(discard).toMatchObject({ reason: { code: "invalid_state", message: STARTED_IMPORT_NOT_DISCARDED } });
      expect(after).toMatchObject({ imports: 1, jobs: 1, audiences: 1, discarded: 0 });
    } else {
      expect(start.reason).toMatchObject({ code: "not_found" });
      // The start left nothing behind: no job, no audience.
      expect(after).toEqual({ imports: 0, chunks: 0, jobs: 0, contacts: 0, audiences: 0, discarded: 1 });
    }
  });
});

describe("the imports page's two lists", () => {
  it("lists started imports apart from uploads never imported, each only in its own workspace", async () => {
    const o = await createOwnerWorkspace(prisma);
    const other = await createOwnerWorkspace(prisma);
    const done = await importCsv(prisma, { workspaceId: o.workspaceId, csv: CSV, fileName: "done.csv" });
    const left = await upload(o.workspaceId, "left-behind.csv");
    await upload(other.workspaceId, "theirs.csv");

    expect(
      (await listImports(prisma, { workspaceId: o.workspaceId, take: 10 })).imports.map((i) => i.importId),
    ).toEqual([done.importId]);
    // A cursor naming an upload never imported is not a place in the list of imports.
    await expect(
      listImports(prisma, { workspaceId: o.workspaceId, cursor: left.importId, take: 10 }),
    ).rejects.toMatchObject({ code: "not_found" });
    const uploads = await listUnstartedUploads(prisma, { workspaceId: o.workspaceId });
    expect(uploads).toEqual({
      uploads: [
        {
          importId: left.importId,
          fileName: "left-behind.csv",
          rows: 10,
          columns: 3,
          byteSize: Buffer.byteLength(CSV),
          uploadedBy: testActor.label,
          uploadedAt: expect.any(String),
        },
      ],
      total: 1,
    });
    // The import's own page says when it was uploaded and when (if ever) it started.
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: left.importId })).toMatchObject({
      status: "awaiting_mapping",
      startedAt: null,
    });
    expect(await getImport(prisma, { workspaceId: o.workspaceId, importId: done.importId })).toMatchObject({
      status: "succeeded",
      startedAt: expect.any(String),
    });
  });

  it(`lists at most ${MAX_LISTED_UPLOADS} uploads never imported, newest first, and counts them all`, async () => {
    const o = await createOwnerWorkspace(prisma);
    const file = await upload(o.workspaceId, "first.csv");
    const rows = Array.from({ length: MAX_LISTED_UPLOADS + 2 }, (_, i) => ({
      ...{
        workspaceId: o.workspaceId,
        fileName: `copy-${i}.csv`,
        byteSize: 1,
        encoding: "utf-8",
        delimiter: ",",
        rowCount: 1,
        columns: ["Email"],
      },
      requestedByKind: "user" as const,
      requestedByLabel: "x",
      createdAt: new Date(Date.now() + (i + 1) * 1000),
    }));
    await prisma.contactImport.createMany({ data: rows });
    const listed = await listUnstartedUploads(prisma, { workspaceId: o.workspaceId });
    expect(listed.total).toBe(MAX_LISTED_UPLOADS + 3);
    expect(listed.uploads).toHaveLength(MAX_LISTED_UPLOADS);
    expect(listed.uploads[0].fileName).toBe(`copy-${MAX_LISTED_UPLOADS + 1}.csv`);
    expect(listed.uploads.map((u) => u.importId)).not.toContain(file.importId);
  });

  it("an upload still arriving is not listed; discarded meanwhile, its uploader is told so (409), and nothing of it is kept", async () => {
    const o = await createOwnerWorkspace(prisma);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const [header, ...rows] = CSV.split("\n");
    async function* slowBody() {
      yield new TextEncoder().encode(`${header}\n`);
      await gate;
      yield new TextEncoder().encode(rows.join("\n"));
    }
    const uploading = receiveUpload(prisma, {
      workspaceId: o.workspaceId,
      fileName: "slow.csv",
      body: slowBody(),
      actor: testActor,
    });
    const outcome = uploading.then(
      () => null,
      (e: unknown) => e,
    );
    let record = null as { id: string } | null;
    for (let i = 0; i < 100 && !record; i++) {
      record = await prisma.contactImport.findFirst({
        where: { workspaceId: o.workspaceId, fileName: "slow.csv" },
        select: { id: true },
      });
      if (!record) await new Promise((r) => setTimeout(r, 10));
    }
    expect(record).not.toBeNull();
    // Still arriving: not offered for discarding on the imports page.
    expect(await listUnstartedUploads(prisma, { workspaceId: o.workspaceId })).toEqual({ uploads: [], total: 0 });
    // Discarded by its id all the same (another tab that listed it a moment later, say).
    await discardUpload(prisma, { workspaceId: o.workspaceId, importId: record!.id, actor: testActor });
    release();
    expect(await outcome).toMatchObject({
      code: "conflict",
      message:
        "This upload was discarded while the file was still arriving, so nothing of it was kept. Upload the file again to import it.",
    });
    expect(await footprint(o.workspaceId, record!.id)).toMatchObject({
      imports: 0,
      chunks: 0,
      contacts: 0,
      discarded: 1,
    });
  });
});
