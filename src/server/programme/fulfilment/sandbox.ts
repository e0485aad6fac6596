import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import type { FulfilmentAdapter, PriceQuote, PrintJobRequest, PrintJobResult, VendorCatalogue } from "./adapter";
import { PRINT_FORMATS, PRINT_SIZES, type TPrintFormat } from "./sizes";
import { formatPlural } from "@/server/ground/render/format-words";

/** Printing per piece, in cents, by format and size: the sandbox's price list (in the range of public US print-and-mail prices; a gift includes the item). */
const PRINT_CENTS: Record<string, number> = {
  "postcard:4x6": 35,
  "postcard:6x9": 48,
  "postcard:6x11": 58,
  "letter:us_letter": 62,
  "letter:a4": 62,
  "handwritten:5x7": 310,
  "gift:4x6": 2400,
};
/** Postage per piece by destination: domestic US First-Class or Marketing Mail rates, and international. */
const POSTAGE_CENTS = {
  domestic: { postcard: 56, letter: 73, handwritten: 73, gift: 1150 },
  international: { postcard: 170, letter: 170, handwritten: 170, gift: 3800 },
} as const;

/** Where the sandbox "mails": the countries the audit, designs and demo use, and their neighbours. */
export const SANDBOX_COUNTRIES = [
  "US",
  "CA",
  "MX",
  "GB",
  "IE",
  "DE",
  "FR",
  "NL",
  "BE",
  "ES",
  "IT",
  "PT",
  "AT",
  "CH",
  "SE",
  "DK",
  "NO",
  "FI",
  "PL",
  "AU",
  "NZ",
  "JP",
  "BR",
  "SG",
  "IN",
];

/**
 * The built-in sandbox print vendor: it quotes from a fixed price list, accepts print-ready PDFs,
 * "prints and mails" them at once, and keeps its job book in its own table, one job per piece, so
 * a repeated submission (after a crash) returns the first job instead of printing twice. Nothing
 * is really printed: it is the vendor every workspace can try the whole path with.
 */
export class SandboxPrintVendor implements FulfilmentAdapter {
  readonly vendor = "sandbox";

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  catalogue(): VendorCatalogue {
    return {
      vendor: this.vendor,
      label: "Sandbox printer",
      description:
        "The built-in test printer: it quotes real-world prices and goes through every step, but nothing is printed or posted.",
      products: PRINT_FORMATS.map((format) => ({ format, sizes: PRINT_SIZES[format].map((s) => s.size) })),
      countries: SANDBOX_COUNTRIES,
    };
  }

  async quote(p: { format: TPrintFormat; size: string; countries: string[] }): Promise<PriceQuote> {
    const print = PRINT_CENTS[`${p.format}:${p.size}`];
    if (print === undefined)
      throw new AppError(
        "validation_failed",
        `The sandbox printer does not sell ${formatPlural(p.format)} in size ${p.size}.`,
      );
    const outside = p.countries.filter((c) => !SANDBOX_COUNTRIES.includes(c));
    if (outside.length)
      throw new AppError("validation_failed", `The sandbox printer does not mail to ${outside.join(", ")}.`);
    const perCountry = p.countries.map((country) => {
      const postage = POSTAGE_CENTS[country === "US" ? "domestic" : "international"][p.format];
      return { country, printCents: print, postageCents: postage, unitCostCents: print + postage };
    });
    return {
      perCountry,
      unitCostCents: Math.max(...perCountry.map((c) => c.unitCostCents)),
      quotedAt: this.clock().toISOString(),
    };
  }

  /**
   * A batch, for the lifecycle: the pieces' jobs recorded in one statement from the stored pieces
   * (their page counts were taken from the print files when they were rendered), and read back.
   */
  async submitStored(pieceIds: string[]): Promise<Map<string, PrintJobResult>> {
    const printedAt = this.clock();
    const mailedAt = new Date(printedAt.getTime() + 1000);
    await this.db.$executeRaw`
      INSERT INTO "SandboxPrintJob" (id, "pieceId", "workspaceId", format, pages, "printedAt", "mailedAt")
      SELECT 'prt_' || replace(gen_random_uuid()::text, '-', ''), p.id, p."workspaceId", c.format, COALESCE(p.pages, 1), ${printedAt}, ${mailedAt}
        FROM "MailPiece" p JOIN "Campaign" c ON c.id = p."campaignId"
       WHERE p.id = ANY(${pieceIds}::text[]) AND (p."proofPdf" IS NOT NULL OR p."printDraftId" IS NOT NULL)
      ON CONFLICT ("pieceId") DO NOTHING`;
    const rows = await this.db.sandboxPrintJob.findMany({
      where: { pieceId: { in: pieceIds } },
      select: { id: true, pieceId: true, printedAt: true, mailedAt: true },
    });
    return new Map(rows.map((r) => [r.pieceId, { vendorRef: r.id, printedAt: r.printedAt, mailedAt: r.mailedAt }]));
  }

  async submit(job: PrintJobRequest): Promise<PrintJobResult> {
    // pdf-lib is loaded by the pieces that need it (about 180 ms of CPU), not by every runner.
    const { PDFDocument } = await import("pdf-lib");
    const pages = (await PDFDocument.load(job.pdf)).getPageCount();
    const printedAt = this.clock();
    await this.db.sandboxPrintJob.createMany({
      data: [
        {
          pieceId: job.pieceId,
          workspaceId: job.workspaceId,
          format: job.format,
          pages,
          printedAt,
          mailedAt: new Date(printedAt.getTime() + 1000),
        },
      ],
      skipDuplicates: true,
    });
    const row = await this.db.sandboxPrintJob.findUniqueOrThrow({ where: { pieceId: job.pieceId } });
    return { vendorRef: row.id, printedAt: row.printedAt, mailedAt: row.mailedAt };
  }
}
