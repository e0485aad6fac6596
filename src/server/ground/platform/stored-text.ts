/**
 * Text PostgreSQL cannot store as it was sent: NUL characters (PostgreSQL's text types refuse
 * them) and lone UTF-16 surrogates (they have no UTF-8 form, so they would be stored as U+FFFD,
 * silently changing the value). Every door refuses such input with a 4xx before it reaches a
 * service: REST bodies and parameters, tRPC inputs, MCP tool arguments, OAuth forms and metadata.
 */

/** Why a string cannot be stored, or null when it can. */
/** Whether a string could be one of our record ids (letters, digits, _ and -, at most 64): anything else is not found without asking the database. */
export const isIdShaped = (id: string) => /^[\w-]{1,64}$/.test(id);

export function unstorableReason(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL characters (\\u0000)";
  if (!text.isWellFormed()) return "must not contain unpaired UTF-16 surrogates (text that is not valid Unicode)";
  return null;
}

/** RFC 6901: "~" -> "~0", "/" -> "~1". */
const escapeSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

export interface UnstorableText {
  /** JSON Pointer to the value (or member name) at fault; "" for the value itself. */
  pointer: string;
  detail: string;
}

/** Members visited at most: bounds the walk over a hostile document (deep or wide). */
const MAX_VISITS = 100_000;

/**
 * The first string, or member name, in a JSON-like value that cannot be stored. Walks without
 * recursion, so nesting depth cannot overflow the stack; past MAX_VISITS values the document is
 * refused as unreadable rather than walked further.
 */
export function findUnstorableText(value: unknown): UnstorableText | null {
  const stack: { value: unknown; pointer: string }[] = [{ value, pointer: "" }];
  let visits = 0;
  while (stack.length) {
    const { value: current, pointer } = stack.pop()!;
    if (++visits > MAX_VISITS)
      return { pointer: "", detail: `The request holds more than ${MAX_VISITS} values; send less at once.` };
    if (typeof current === "string") {
      const reason = unstorableReason(current);
      if (reason) return { pointer, detail: `${pointer ? pointer.slice(1) : "The value"} ${reason}.` };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], pointer: `${pointer}/${i}` });
    } else if (current !== null && typeof current === "object" && !(current instanceof Date)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, member] = entries[i];
        const keyReason = unstorableReason(key);
        if (keyReason) return { pointer: `${pointer}/${escapeSegment(key)}`, detail: `A member name ${keyReason}.` };
        stack.push({ value: member, pointer: `${pointer}/${escapeSegment(key)}` });
      }
    }
  }
  return null;
}
