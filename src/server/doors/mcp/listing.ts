import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { TMcpScope } from "@/server/records/oauth/scopes";
import { MCP_TOOLS } from "./catalog";
import { DESCRIBED_ELSEWHERE } from "./listing-meta";
import { EVERY_TOOL, selects, type ToolSelection } from "./toolsets";
import { annotationsOf, toolDescription, toolMeta, ZCardRef, type ToolDef } from "./tool";

/**
 * What `tools/list` and the published catalogue say about each tool. `tools/list` stays small
 * (an agent reads it before anything else): names, descriptions, annotations and input schemas
 * only, with no bound that means nothing. The result envelope and the confirmation-card block are
 * defined once, in the full catalogue (`/agents/tools.json`) beside every tool's result schema.
 */

type Json = { [key: string]: unknown };

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A JSON Schema without what carries nothing: `$schema`, the ±2^53 bounds every integer gets,
 * `additionalProperties: false` on results (every result is closed), and a result object's
 * `required` when it names every property (every result field is always present, null when unknown).
 * (Every tool refuses a key its input does not name, as the server's instructions say once.)
 */
export function compactSchema(node: unknown, io: "input" | "output", full = false): unknown {
  if (Array.isArray(node)) return node.map((n) => compactSchema(n, io, full));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === DESCRIBED_ELSEWHERE) continue;
    // Ids: their description names the prefix; the pattern and the 1-to-64 length add nothing an
    // agent needs (the server still checks them, and its error names the rule).
    if (key === "pattern" && value === "^[\\w-]+$") continue;
    if ((key === "minLength" && value === 1) || (key === "maxLength" && value === 64)) continue;
    // tools/list leaves out short text bounds (names, ids, searches): a longer value is refused
    // naming the bound, and /agents/tools.json gives every one.
    if (!full && io === "input" && key === "maxLength" && typeof value === "number" && value <= 200) continue;
    if (value === undefined) continue;
    if ((key === "minimum" && value === -SAFE) || (key === "maximum" && value === SAFE)) continue;
    if (io === "output" && key === "additionalProperties" && value === false) continue;
    if (key === "properties") {
      const brief = (member: unknown) =>
        !full && DESCRIBED_ELSEWHERE in node && member && typeof member === "object"
          ? { ...member, description: undefined }
          : member;
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, compactSchema(brief(v), io, full)]),
      );
    } else out[key] = compactSchema(value, io, full);
  }
  // A format (date-time, email, uri) says what zod's long generated pattern says.
  if (typeof out.format === "string" && typeof out.pattern === "string") delete out.pattern;
  // string-or-null as one type list, not an anyOf of two schemas.
  const anyOf = out.anyOf as Json[] | undefined;
  if (
    anyOf?.length === 2 &&
    anyOf[1].type === "null" &&
    Object.keys(anyOf[1]).length === 1 &&
    typeof anyOf[0].type === "string" &&
    anyOf[0].type !== "object" &&
    anyOf[0].type !== "array"
  ) {
    const { anyOf: _, ...rest } = out;
    return { ...anyOf[0], ...rest, type: [anyOf[0].type, "null"] };
  }
  if (
    io === "output" &&
    Array.isArray(out.required) &&
    out.properties &&
    out.required.length === Object.keys(out.properties).length
  )
    delete out.required;
  return out;
}

/** `full`: every member described, also where tools/list names members another tool describes. */
const toJson = (schema: z.ZodType, io: "input" | "output", full = false) =>
  compactSchema(z.toJSONSchema(schema, { io, unrepresentable: "any" }), io, full) as Json;

const inputSchemas = new Map<string, Json>();
/** A tool's input as JSON Schema (compact, cached: the same for every request). */
export function inputSchemaOf(tool: ToolDef): Json {
  let schema = inputSchemas.get(tool.name);
  if (!schema) inputSchemas.set(tool.name, (schema = toJson(tool.input, "input")));
  return schema;
}

const listed = new Map<string, Tool>();
/** One tool as `tools/list` gives it. */
export function listedTool(tool: ToolDef): Tool {
  let entry = listed.get(tool.name);
  if (!entry) {
    // The scope is in the description ("Scope: …."); _meta with it is in the server card and /agents/tools.json.
    entry = {
      name: tool.name,
      title: tool.title,
      description: toolDescription(tool),
      inputSchema: inputSchemaOf(tool) as Tool["inputSchema"],
      annotations: annotationsOf(tool),
    };
    listed.set(tool.name, entry);
  }
  return entry;
}

/** The `tools/list` result for a token with these scopes, of the toolsets the connection named. */
export function toolsListFor(scopes: readonly TMcpScope[], selection: ToolSelection = EVERY_TOOL) {
  return { tools: MCP_TOOLS.filter((t) => scopes.includes(t.scope) && selects(selection, t)).map(listedTool) };
}

export interface UnknownKey {
  /** JSON Pointer to the key that does not exist, e.g. "/changes/holdout_share". */
  pointer: string;
  key: string;
  /** The keys that exist at that place. */
  known: string[];
}

const isPlainObject = (v: unknown): v is Json => Boolean(v) && typeof v === "object" && !Array.isArray(v);
const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Every key in `value` that its schema does not have (objects that take any key, like a mapping, take them all). */
export function findUnknownKeys(schema: unknown, value: unknown, pointer = ""): UnknownKey[] {
  if (!isPlainObject(schema)) return [];
  const branches = [schema, ...((schema.anyOf ?? schema.oneOf ?? []) as unknown[])].filter(isPlainObject);
  if (Array.isArray(value)) {
    const items = branches.map((b) => b.items).find(isPlainObject);
    return items ? value.flatMap((v, i) => findUnknownKeys(items, v, `${pointer}/${i}`)) : [];
  }
  if (!isPlainObject(value)) return [];
  const objects = branches.filter((b) => isPlainObject(b.properties) || isPlainObject(b.additionalProperties));
  if (!objects.length) return [];
  const open = objects.find((b) => isPlainObject(b.additionalProperties) || b.additionalProperties === true);
  const found: UnknownKey[] = [];
  const known = [...new Set(objects.flatMap((b) => Object.keys((b.properties as Json | undefined) ?? {})))];
  for (const [key, member] of Object.entries(value)) {
    const at = `${pointer}/${escapePointer(key)}`;
    const owner = objects.find((b) => isPlainObject(b.properties) && Object.hasOwn(b.properties, key));
    if (owner) found.push(...findUnknownKeys((owner.properties as Json)[key], member, at));
    else if (open) found.push(...findUnknownKeys(open.additionalProperties, member, at));
    else found.push({ pointer: at, key, known });
  }
  return found;
}

/** The result envelope every tool answers with, defined once. */
export const ENVELOPE_DESCRIPTION =
  "Every tool's structuredContent is { requested, changed, awaitingConfirmation, result }: requested says what was asked in one sentence; changed lists what changed (empty when nothing did); awaitingConfirmation lists this agent's cards still waiting for a person (cardId, kind, title, status, expiresAt, url); result is the tool's own answer.";

/** /agents/tools.json: every tool in full, with its result schema; the envelope and the card block once. */
export function toolCatalogue(base: string) {
  return {
    description: `Every tool of the MCP server at ${base}/api/mcp, as tools/list gives it plus each tool's result schema. ${ENVELOPE_DESCRIPTION}`,
    $defs: {
      card: toJson(ZCardRef, "output"),
      envelope: {
        type: "object",
        properties: {
          requested: { type: "string", description: "What was requested." },
          changed: {
            type: "array",
            items: { type: "string" },
            description: "What changed because of this call; empty when nothing did.",
          },
          awaitingConfirmation: {
            type: "array",
            items: { $ref: "#/$defs/card" },
            description: "Requests of this agent still waiting for a person to accept them in the browser.",
          },
          result: { description: "The tool's resultSchema." },
        },
        required: ["requested", "changed", "awaitingConfirmation", "result"],
      },
    },
    tools: MCP_TOOLS.map((t) => ({
      ...listedTool(t),
      _meta: toolMeta(t),
      scope: t.scope,
      kind: t.kind,
      inputSchema: toJson(t.input, "input", true),
      resultSchema: toJson(t.result, "output"),
    })),
  };
}
