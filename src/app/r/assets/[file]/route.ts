import { SECURITY_HEADERS } from "@/server/ground/http/security-headers";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { FONT_FAMILIES } from "@/server/ground/render/fonts";
import { FONT_FILES } from "../../[code]/theme";

const packageRequire = createRequire(path.join(process.cwd(), "package.json"));
/** Only the files the hosted pages name (Latin slices of the bundled fonts, SIL Open Font License), with their package. */
const FILES = new Map<string, string>(
  Object.entries(FONT_FILES).flatMap(([family, f]) =>
    [f.regular, f.bold]
      .filter((x): x is NonNullable<typeof x> => !!x)
      .map((file) => [file, FONT_FAMILIES[family as keyof typeof FONT_FILES].pkg] as const),
  ),
);

/** GET /r/assets/{file}.woff2: a web font of the hosted pages, cached for a year. */
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const pkg = FILES.get(file);
  if (!pkg)
    return new Response("Not found", {
      status: 404,
      headers: { ...SECURITY_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
    });
  const dir = path.dirname(packageRequire.resolve(`${pkg}/package.json`));
  const bytes = await readFile(path.join(dir, "files", file));
  return new Response(new Uint8Array(bytes), {
    headers: {
      ...SECURITY_HEADERS,
      "Content-Type": "font/woff2",
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
