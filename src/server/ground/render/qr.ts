import QRCode from "qrcode";

/** A QR code as one SVG path of dark modules (runs per row), inside a quiet zone of 4 modules: vector, so it is sharp at any resolution. */
export function qrPath(url: string, x: number, y: number, size: number): string {
  const qr = QRCode.create(url, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const cell = size / (n + 8);
  const parts: string[] = [];
  const f = (v: number) => Math.round(v * 1000) / 1000;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      let run = 1;
      while (c + run < n && qr.modules.get(r, c + run)) run++;
      parts.push(`M${f(x + (c + 4) * cell)} ${f(y + (r + 4) * cell)}h${f(run * cell)}v${f(cell)}h${f(-run * cell)}z`);
      c += run - 1;
    }
  }
  return parts.join("");
}
