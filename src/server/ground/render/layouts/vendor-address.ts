import { layoutText } from "../text";
import type { Box } from "../text";
import type { PageBuilder } from "./common";

/**
 * Marks, in every preview and never in the print file, the area a print vendor prints its address
 * block in (Lob: the recipient's address, postage and barcode on a postcard's back; both window
 * addresses on a letter's first page): a dashed outline and a line naming the vendor, over the
 * address drawn where it will be printed. The print file leaves the area blank, as the vendor asks.
 */
export function vendorAddressMark(page: PageBuilder, box: Box, vendor: string) {
  page.vendorPrinted({
    kind: "rect",
    x: box.x,
    y: box.y,
    w: box.w,
    h: box.h,
    stroke: "#1971c2",
    lineWidth: 0.75,
    dash: [4, 2],
  });
  const label = layoutText(
    `${vendor} prints this address block`,
    { x: box.x + 3, y: box.y + box.h - 11, w: box.w - 6, h: 10 },
    { family: "noto-sans", weight: 700, size: 6, minSize: 5, color: "#1971c2", align: "right" },
  );
  if (label.runs.length) page.vendorPrinted({ kind: "text", runs: label.runs });
}
