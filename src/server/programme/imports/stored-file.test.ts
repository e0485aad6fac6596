import iconv from "iconv-lite";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { bytesOf, testActor } from "@/test/imports";
import { storedFile, receiveUpload } from "./upload";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

async function readBack(importId: string): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of storedFile(prisma, importId)) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

describe("an import's kept file, read back", () => {
  it("gives every byte as uploaded, across its 1 MB pieces, whatever bytes the file holds (Latin-1 text on PostgreSQL, bytea for a piece with a NUL)", async () => {
    const o = await createOwnerWorkspace(prisma);
    // Windows-1252 (every byte from 0x80 to 0xFF, none of them UTF-8) over more than two pieces.
    const high = Array.from({ length: 128 }, (_, i) => String.fromCharCode(0x80 + i)).join("");
    const rows = Array.from({ length: 14_000 }, (_, i) => `Person${i},Last${i},p${i}@example.com,${high}`);
    const bytes = Buffer.from(["First,Last,Email,Notes", ...rows].join("\r\n"), "latin1");
    expect(bytes.byteLength).toBeGreaterThan(2 * 1024 * 1024);
    const a = await receiveUpload(prisma, {
      workspaceId: o.workspaceId,
      fileName: "high.csv",
      body: bytesOf(bytes, 65536),
      actor: testActor,
    });
    expect(a).toMatchObject({ encoding: "windows-1252", rows: 14_000 });
    expect((await readBack(a.importId)).equals(bytes)).toBe(true);

    // UTF-16 (a NUL in every other byte), and UTF-8 with characters cut by the pieces' edges.
    const text = [
      "Vorname\tNachname\tOrt",
      ...Array.from({ length: 30_000 }, (_, i) => `Jürgen${i}\tGroß€\t日本語 Straße ${i}`),
    ].join("\r\n");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, "utf16le")]);
    const b = await receiveUpload(prisma, {
      workspaceId: o.workspaceId,
      fileName: "wide.txt",
      body: bytesOf(utf16, 65536),
      actor: testActor,
    });
    expect(b).toMatchObject({ encoding: "utf-16le", rows: 30_000 });
    expect((await readBack(b.importId)).equals(utf16)).toBe(true);
    const utf8 = Buffer.from(text, "utf8");
    const c = await receiveUpload(prisma, {
      workspaceId: o.workspaceId,
      fileName: "utf8.txt",
      body: bytesOf(utf8, 65536),
      actor: testActor,
    });
    expect(c).toMatchObject({ encoding: "utf-8", rows: 30_000 });
    expect((await readBack(c.importId)).equals(utf8)).toBe(true);
  });
});
