import PDFDocument from "pdfkit";
import { primaryFont } from "./fonts";
import { pdfImageData } from "./images";
import { addPath } from "./pdf-paths";
import { drawRun } from "./pdf-text";
import type { Scene, SceneItem } from "./scene";

/**
 * Writes a scene as a print PDF with PDFKit: every page at its exact size including bleed
 * (MediaBox and BleedBox) with the trim size as TrimBox; text as real text in embedded,
 * subsetted TrueType fonts with a ToUnicode map (so it can be searched and extracted); QR codes
 * and artwork as vectors; images at the resolution they were given.
 */
export async function writePdf(scene: Scene): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    // The default would load Helvetica's metrics for every document; start with a font we use anyway.
    // PDFKit takes a fontkit font as well as a file; its types name only files.
    font: primaryFont("noto-sans", 400).font as unknown as string,
    info: {
      Title: scene.title,
      Producer: "Direct Mail Programme renderer",
      Creator: "Direct Mail Programme",
      CreationDate: new Date(0),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const images = new Map<string, { name: string; ref: PDFKit.PDFKitReference }>();
  for (const page of scene.pages) {
    doc.addPage({ size: [page.width, page.height], margin: 0 });
    const b = page.bleed;
    const boxes = doc.page.dictionary.data as Record<string, unknown>;
    boxes.BleedBox = [0, 0, page.width, page.height];
    boxes.TrimBox = [b, b, page.width - b, page.height - b];
    for (const item of page.items) await drawItem(doc, item, images);
  }
  doc.end();
  return done;
}

async function drawItem(
  doc: PDFKit.PDFDocument,
  item: SceneItem,
  images: Map<string, { name: string; ref: PDFKit.PDFKitReference }>,
) {
  switch (item.kind) {
    case "rect": {
      doc.save();
      if (item.radius) doc.roundedRect(item.x, item.y, item.w, item.h, item.radius);
      else doc.rect(item.x, item.y, item.w, item.h);
      if (item.opacity !== undefined) doc.fillOpacity(item.opacity).strokeOpacity(item.opacity);
      if (item.dash) doc.dash(item.dash[0], { space: item.dash[1] ?? item.dash[0] });
      if (item.fill && item.stroke) doc.lineWidth(item.lineWidth ?? 1).fillAndStroke(item.fill, item.stroke);
      else if (item.fill) doc.fill(item.fill);
      else if (item.stroke) doc.lineWidth(item.lineWidth ?? 1).stroke(item.stroke);
      doc.restore();
      return;
    }
    case "line":
      doc.save().moveTo(item.x1, item.y1).lineTo(item.x2, item.y2).lineWidth(item.lineWidth);
      if (item.dash) doc.dash(item.dash[0], { space: item.dash[1] ?? item.dash[0] });
      doc.stroke(item.stroke).restore();
      return;
    case "group":
      doc.save();
      doc.rect(item.clip.x, item.clip.y, item.clip.w, item.clip.h).clip();
      for (const inner of item.items) await drawItem(doc, inner, images);
      doc.restore();
      return;
    case "path":
      doc.save();
      if (item.opacity !== undefined) doc.fillOpacity(item.opacity);
      addPath(doc, item.d);
      doc.fill(item.fill);
      doc.restore();
      return;
    case "text":
      doc.save();
      if (item.rotate) doc.rotate(item.rotate.degrees, { origin: [item.rotate.cx, item.rotate.cy] });
      if (item.opacity !== undefined) doc.fillOpacity(item.opacity);
      for (const run of item.runs) drawRun(doc, run);
      doc.restore();
      return;
    case "image": {
      let entry = images.get(item.image.id);
      if (!entry) {
        const img = await pdfImageData(item.image);
        const common = { Type: "XObject", Subtype: "Image", Width: img.width, Height: img.height, BitsPerComponent: 8 };
        const ref = doc.ref({ ...common, ColorSpace: img.colorSpace, Filter: img.filter });
        if (img.alpha) {
          const mask = doc.ref({ ...common, ColorSpace: "DeviceGray", Filter: "FlateDecode" });
          mask.end(img.alpha);
          (ref.data as Record<string, unknown>).SMask = mask;
        }
        ref.end(img.data);
        entry = { name: `Im${images.size + 1}`, ref };
        images.set(item.image.id, entry);
      }
      // The page's XObject dictionary, which PDFKit's types do not show.
      (doc.page as unknown as { xobjects: Record<string, unknown> }).xobjects[entry.name] = entry.ref;
      const name = entry.name;
      doc.save();
      // Image space is a unit square; place it at (x, y) from the top left.
      doc.transform(item.w, 0, 0, -item.h, item.x, item.y + item.h);
      doc.addContent(`/${name} Do`);
      doc.restore();
      return;
    }
  }
}
