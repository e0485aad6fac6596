import sax from "sax";
import { declaredImageSize, MAX_IMAGE_PIXELS } from "@/server/ground/render/image-limits";

/**
 * An uploaded SVG reduced to a drawing that holds everything it shows, before any SVG library reads
 * it. A renderer given `<image href="public/favicon.svg">`, an absolute path, a `file:` or `http:`
 * address, `url(...)` in a style or an `@import` would fetch that resource itself and embed it
 * (resvg reads files from the server's disk), so all of them are dropped here, as are scripts,
 * event handlers, foreignObject, DOCTYPEs (entities) and processing instructions. What survives:
 *
 * - elements from an allow-list of drawing elements (anything else is dropped with its content);
 * - references inside the document only (`href="#id"`, `url(#id)`), and `<use>` only of an element
 *   that holds no `<use>` itself (no exponential expansion);
 * - embedded PNG and JPEG images (`data:` URLs) whose header declares at most MAX_IMAGE_PIXELS pixels;
 * - `<style>` sheets with no at-rule, escape or outside `url()`, and style declarations likewise.
 *
 * The XML is read by sax (strict, predefined entities only); a document it cannot read is refused.
 */
export class UnreadableSvgError extends Error {}

const ELEMENTS = new Set([
  "svg",
  "g",
  "defs",
  "title",
  "desc",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
  "pattern",
  "marker",
  "image",
  "style",
  "text",
  "tspan",
  "filter",
  "feBlend",
  "feColorMatrix",
  "feComponentTransfer",
  "feComposite",
  "feConvolveMatrix",
  "feDiffuseLighting",
  "feDisplacementMap",
  "feDistantLight",
  "feDropShadow",
  "feFlood",
  "feFuncA",
  "feFuncB",
  "feFuncG",
  "feFuncR",
  "feGaussianBlur",
  "feMerge",
  "feMergeNode",
  "feMorphology",
  "feOffset",
  "fePointLight",
  "feSpecularLighting",
  "feSpotLight",
  "feTile",
  "feTurbulence",
]);
/** Elements whose text content is kept. */
const TEXT_ELEMENTS = new Set(["title", "desc", "style", "text", "tspan"]);
/** An `<a>` draws what it holds: it is kept as a group, without its link. */
const RENAMED: Record<string, string> = { a: "g" };
const NAMESPACES: Record<string, string> = {
  xmlns: "http://www.w3.org/2000/svg",
  "xmlns:xlink": "http://www.w3.org/1999/xlink",
};
const MAX_DEPTH = 200;
const MAX_ELEMENTS = 100_000;

// Attribute values (an embedded image's data URL) can be longer than sax's default 64 KiB buffer.
sax.MAX_BUFFER_LENGTH = Math.max(sax.MAX_BUFFER_LENGTH, 4 * 1024 * 1024);

interface Node {
  name: string;
  attrs: [string, string][];
  children: (Node | string)[];
}

const isFragment = (value: string) => /^#[^\s#]+$/.test(value.trim());

/** True when every `url(...)` in a value points inside the document. */
function urlsAreLocal(value: string): boolean {
  const lower = value.toLowerCase();
  let from = 0;
  for (;;) {
    const at = lower.indexOf("url(", from);
    if (at === -1) return true;
    const target = value.slice(at + 4).replace(/^\s*['"]?\s*/, "");
    if (!target.startsWith("#")) return false;
    from = at + 4;
  }
}

/** A CSS text with nothing that can reach outside the document: no at-rules (@import, @font-face), no escapes, no comments, only local url(). */
const cssIsSelfContained = (css: string) => !/[@\\]|\/\*|expression\s*\(/i.test(css) && urlsAreLocal(css);

function embeddedImageAllowed(value: string): boolean {
  const m = /^\s*data:image\/(png|jpeg|jpg);base64,([A-Za-z0-9+/=\s]+)$/i.exec(value);
  if (!m) return false;
  const size = declaredImageSize(Buffer.from(m[2], "base64"));
  return (
    !!size &&
    (size.mime === "image/png" || size.mime === "image/jpeg") &&
    size.width > 0 &&
    size.height > 0 &&
    size.width * size.height <= MAX_IMAGE_PIXELS
  );
}

function keptAttributes(element: string, attributes: Record<string, string>): [string, string][] {
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(attributes)) {
    const lower = name.toLowerCase();
    if (lower === "xmlns" || lower.startsWith("xmlns:")) {
      if (NAMESPACES[lower] === value) kept.push([lower, value]);
      continue;
    }
    if (lower.startsWith("on") || (name.includes(":") && lower !== "xlink:href" && lower !== "xml:space")) continue;
    if (lower === "href" || lower === "xlink:href") {
      if (isFragment(value) && element !== "image") kept.push([name, value.trim()]);
      else if (element === "image" && embeddedImageAllowed(value)) kept.push([name, value.replace(/\s+/g, "")]);
      continue;
    }
    if (lower === "style") {
      const declarations = value.split(";").filter((d) => d.trim() && cssIsSelfContained(d));
      if (declarations.length) kept.push([name, declarations.join(";")]);
      continue;
    }
    if (!urlsAreLocal(value) || /[\\]|@import|javascript:/i.test(value)) continue;
    kept.push([name, value]);
  }
  return kept;
}

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (text: string) => escapeText(text).replace(/"/g, "&quot;");

/** Parses an SVG document and writes back only its self-contained drawing; throws UnreadableSvgError when it is not readable SVG. */
export function sanitiseSvg(text: string): string {
  const root: Node = { name: "#root", attrs: [], children: [] };
  const stack: (Node | null)[] = [root];
  let elements = 0;
  let failure: Error | null = null;
  const usesById = new Set<string>();
  const holdsUse = new Set<string>();
  const parser = sax.parser(true, { strictEntities: true, position: false });
  parser.onerror = (error) => {
    failure ??= error;
  };
  parser.onopentag = (tag) => {
    if (++elements > MAX_ELEMENTS || stack.length > MAX_DEPTH)
      failure ??= new Error("too many or too deeply nested elements");
    const parent = stack[stack.length - 1];
    const name = RENAMED[tag.name] ?? tag.name;
    if (
      !parent ||
      !ELEMENTS.has(name) ||
      (parent === root && name !== "svg") ||
      (name === "svg" && parent !== root && parent.name !== "svg" && parent.name !== "g")
    ) {
      stack.push(null);
      return;
    }
    const node: Node = { name, attrs: keptAttributes(name, tag.attributes), children: [] };
    if (name === "use") {
      for (const entry of stack) {
        const id = entry?.attrs.find(([n]) => n === "id")?.[1];
        if (id) holdsUse.add(id);
      }
      const own = node.attrs.find(([n]) => n === "id")?.[1];
      if (own) holdsUse.add(own);
      const href = node.attrs.find(([n]) => n === "href" || n === "xlink:href")?.[1];
      if (!href) {
        stack.push(null);
        return;
      }
      usesById.add(href.slice(1));
    }
    parent.children.push(node);
    stack.push(node);
  };
  parser.onclosetag = () => {
    stack.pop();
  };
  const onText = (t: string) => {
    const parent = stack[stack.length - 1];
    if (parent && TEXT_ELEMENTS.has(parent.name)) parent.children.push(t);
  };
  parser.ontext = onText;
  parser.oncdata = onText;
  try {
    parser.write(text).close();
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure) throw new UnreadableSvgError(failure.message.split("\n")[0]);
  const svg = root.children.find((c): c is Node => typeof c !== "string");
  if (!svg) throw new UnreadableSvgError("no <svg> element");
  if (!svg.attrs.some(([n]) => n === "xmlns")) svg.attrs.unshift(["xmlns", NAMESPACES.xmlns]);
  const nested = [...usesById].some((id) => holdsUse.has(id));
  const write = (node: Node): string => {
    if (node.name === "use" && nested) {
      const href = node.attrs.find(([n]) => n === "href" || n === "xlink:href")?.[1] ?? "";
      if (holdsUse.has(href.slice(1))) return "";
    }
    if (node.name === "style") {
      const css = node.children.filter((c): c is string => typeof c === "string").join("");
      if (!cssIsSelfContained(css)) return "";
    }
    const open = `<${node.name}${node.attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join("")}`;
    if (!node.children.length) return `${open}/>`;
    return `${open}>${node.children.map((c) => (typeof c === "string" ? escapeText(c) : write(c))).join("")}</${node.name}>`;
  };
  let out = write(svg);
  // xlink:href anywhere needs the xlink namespace on the root.
  if (out.includes("xlink:href=") && !svg.attrs.some(([n]) => n === "xmlns:xlink"))
    out = out.replace(/^<svg/, `<svg xmlns:xlink="${NAMESPACES["xmlns:xlink"]}"`);
  return out;
}
