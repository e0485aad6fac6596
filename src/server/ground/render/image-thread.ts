/**
 * The renderer's image thread (node:worker_threads): decodes one PNG for the PDF (./png-decode.ts)
 * and hands the result back. Started once per image that a process embeds (the result is cached by
 * the image's content hash, ./images.ts), so a logo is decoded at most once per process and never
 * on the event loop that answers requests. Compiled into one module on first use
 * (platform/thread-module.ts); see pdfImageData.
 */
import { parentPort, workerData } from "node:worker_threads";
import { decodePngForPdf } from "./png-decode";

const port = parentPort!;
try {
  port.postMessage({ ok: true, img: await decodePngForPdf(workerData as Uint8Array) });
} catch (error) {
  port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
