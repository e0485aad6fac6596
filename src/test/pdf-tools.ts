import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Poppler's command-line tools (Debian's poppler-utils): an independent reader of the PDFs we write. */
export const hasPoppler = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function withFile<T>(pdf: Buffer, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-"));
  try {
    const file = path.join(dir, "in.pdf");
    writeFileSync(file, pdf);
    return fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's text as pdftotext extracts it (`raw`: in the order it was drawn, not in reading order). */
export const pdfText = (pdf: Buffer, opts: { raw?: boolean } = {}) =>
  withFile(pdf, (f) =>
    execFileSync("pdftotext", ["-enc", "UTF-8", ...(opts.raw ? ["-raw"] : []), f, "-"], { encoding: "utf8" }),
  );
export const pdfFonts = (pdf: Buffer) =>
  withFile(pdf, (f) =>
    execFileSync("pdffonts", [f], { encoding: "utf8" })
      .split("\n")
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => {
        const cols = l.trim().split(/\s+/);
        return { name: cols[0], emb: cols[cols.length - 5], sub: cols[cols.length - 4], uni: cols[cols.length - 3] };
      }),
  );
export const pdfBoxes = (pdf: Buffer) =>
  withFile(pdf, (f) => {
    const out = execFileSync("pdfinfo", ["-box", "-f", "1", "-l", "99", f], { encoding: "utf8" });
    return [
      ...out.matchAll(/Page\s+(\d+) (MediaBox|TrimBox|BleedBox):\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/g),
    ].map((m) => ({ page: Number(m[1]), box: m[2], rect: [m[3], m[4], m[5], m[6]].map(Number) }));
  });
/** One page rasterised by poppler at `dpi` (72 = one pixel per point), as PNG bytes. */
export const pdfPagePng = (pdf: Buffer, page: number, dpi: number) =>
  withFile(pdf, (f, dir) => {
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      String(dpi),
      "-f",
      String(page),
      "-l",
      String(page),
      "-singlefile",
      f,
      path.join(dir, "out"),
    ]);
    return readFileSync(path.join(dir, "out.png"));
  });
