import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { bytesOf, testActor } from "@/test/imports";
import { detectNewline, RecordCounter } from "./csv";
import { receiveUpload } from "./upload";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const upload = (workspaceId: string, csv: string) =>
  receiveUpload(prisma, { workspaceId, fileName: "broken.csv", body: bytesOf(csv, 65536), actor: testActor });

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    return error as { code: string; message: string; errors?: { pointer: string; detail: string }[] };
  }
  throw new Error("the upload was accepted");
}

describe("an upload whose quoting breaks", () => {
  it("with a quote that never closes is refused at once, naming the line where it opens, and nothing is kept", async () => {
    const o = await createOwnerWorkspace(prisma);
    // About 8 MB after the broken line: read as one value, this took a minute and held the server.
    const rows = Array.from(
      { length: 60_000 },
      (_, i) => `Person${i},Last${i},p${i}@example.com,Street ${i} Floor 2,Boston`,
    );
    const csv = [
      "First Name,Last Name,Email,Street,City",
      'Ada,Lovelace,ada@example.com,"1 Main St, Boston',
      ...rows,
    ].join("\r\n");
    const error = await refusal(upload(o.workspaceId, csv));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe(
      'Line 2 opens a quoted value that is never closed (a " is missing), so everything after it would be read as one value. Close the quote on that line (a quote inside a value is written twice: "") and upload the file again.',
    );
    expect(error.errors).toEqual([{ pointer: "/file", detail: "Line 2: the quoting breaks here." }]);
    expect(await prisma.contactImport.count({ where: { workspaceId: o.workspaceId } })).toBe(0);
    expect(await prisma.contactImportChunk.count({ where: { import: { workspaceId: o.workspaceId } } })).toBe(0);
  });

  it("counts the lines a quoted value spans, as an editor shows them", async () => {
    const o = await createOwnerWorkspace(prisma);
    const csv = [
      "Name,Street",
      'Ada,"1 Main St',
      'Floor 2"',
      "Grace,2 Main St",
      "",
      'Alan,"3 King St',
      "Linus,4 Elm St",
    ].join("\n");
    expect((await refusal(upload(o.workspaceId, csv))).message).toMatch(
      /^Line 6 opens a quoted value that is never closed/,
    );
  });

  it("with a quoted value that runs on for more than a megabyte is refused at the line it opens", async () => {
    const o = await createOwnerWorkspace(prisma);
    const filler = Array.from({ length: 70_000 }, (_, i) => `Person${i},Street ${i}`).join("\n");
    // A stray quote on line 3 that a quote far below happens to close.
    const csv = `Name,Street\nAda,1 Main St\nGrace,"2 Main St\n${filler}\nLinus,"4 Elm St"\n`;
    expect((await refusal(upload(o.workspaceId, csv))).message).toBe(
      'Line 3 opens a quoted value that runs on for more than 1 MB (its closing " is probably missing), so the lines after it would be read as one value. Close the quote on that line (a quote inside a value is written twice: "") and upload the file again.',
    );
  });

  it("a file whose quotes all close is taken, quoted line breaks and doubled quotes included", async () => {
    const o = await createOwnerWorkspace(prisma);
    const result = await upload(o.workspaceId, 'Name,Street\r\nAda,"1 Main St\r\nFloor 2"\r\nGrace,"say ""hi"""\r\n');
    expect(result.rows).toBe(2);
  });
});

describe("the quick count's line numbers", () => {
  it("follow every line ending and are the same fed a byte or a chunk at a time", () => {
    for (const [text, line] of [
      ['a\n"b\nc', 2],
      ['a\r\nb\r\n"c\r\nd', 3],
      ['a\r"b\rc', 2],
      ['a,b\n1,"x\ny"\n2,"open', 4],
    ] as const) {
      for (const size of [1, 3, 1000]) {
        const counter = new RecordCounter(",", detectNewline(text));
        for (let i = 0; i < text.length; i += size) counter.push(text.slice(i, i + size));
        counter.end();
        expect(counter.unclosedQuoteLine, JSON.stringify(text)).toBe(line);
      }
    }
  });
});
