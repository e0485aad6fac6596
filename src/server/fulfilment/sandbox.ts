import { PDFDocument } from "pdf-lib";
import type { Db } from "@/server/db";
import type { FulfilmentAdapter, PrintJobRequest, PrintJobResult } from "./adapter";

/**
 * The built-in sandbox print vendor: it accepts print-ready PDFs, "prints and mails" them at
 * once, and keeps its job book in its own table, one job per piece, so a repeated submission
 * (after a crash) returns the first job instead of printing twice.
 */
export class SandboxPrintVendor implements FulfilmentAdapter {
  readonly vendor = "sandbox";

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async submit(job: PrintJobRequest): Promise<PrintJobResult> {
    const pages = (await PDFDocument.load(job.pdf)).getPageCount();
    const printedAt = this.clock();
    await this.db.sandboxPrintJob.createMany({
      data: [{ pieceId: job.pieceId, workspaceId: job.workspaceId, format: job.format, pages, printedAt, mailedAt: new Date(printedAt.getTime() + 1000) }],
      skipDuplicates: true,
    });
    const row = await this.db.sandboxPrintJob.findUniqueOrThrow({ where: { pieceId: job.pieceId } });
    return { vendorRef: row.id, printedAt: row.printedAt, mailedAt: row.mailedAt };
  }
}
