import { isUtf8 } from "node:buffer";
import { Readable } from "node:stream";
import iconv from "iconv-lite";
import Papa from "papaparse";

/** The encodings an upload can be in: UTF-8 (with or without a byte-order mark), UTF-16 with one, or Windows-1252. */
export type TEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
export const DELIMITERS = [",", ";", "\t", "|"] as const;
export type TDelimiter = (typeof DELIMITERS)[number];

/** The encoding a byte-order mark names, or null without one. */
export function bomEncoding(head: Uint8Array): TEncoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8";
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * Whether a whole stream is valid UTF-8, fed a chunk at a time (a character may straddle two
 * chunks). Checks bytes in place (node:buffer isUtf8), making no strings of a 50 MB upload.
 */
export class Utf8Check {
  valid = true;
  private carry: Uint8Array = new Uint8Array(0);
  push(chunk: Uint8Array): void {
    if (!this.valid) return;
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    // Hold back an incomplete character at the end (at most 3 bytes after its lead byte).
    let cut = bytes.length;
    for (let back = 1; back <= Math.min(3, bytes.length); back++) {
      const b = bytes[bytes.length - back];
      if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (need > back) cut = bytes.length - back;
      break;
    }
    if (!isUtf8(bytes.subarray(0, cut))) this.valid = false;
    this.carry = bytes.slice(cut);
  }
  end(): boolean {
    if (this.valid && this.carry.length) this.valid = isUtf8(this.carry);
    return this.valid;
  }
}

/** The encoding of a file: its byte-order mark's, else UTF-8 when every byte sequence is valid UTF-8, else Windows-1252. */
export function decideEncoding(head: Uint8Array, validUtf8: boolean): TEncoding {
  return bomEncoding(head) ?? (validUtf8 ? "utf-8" : "windows-1252");
}

const iconvName: Record<TEncoding, string> = {
  "utf-8": "utf8",
  "utf-16le": "utf16le",
  "utf-16be": "utf16be",
  "windows-1252": "win1252",
};

/** A streaming decoder (byte-order mark removed; characters split across chunks handled). */
export function textDecoder(encoding: TEncoding) {
  const decoder = iconv.getDecoder(iconvName[encoding], { stripBOM: true });
  return {
    write: (chunk: Uint8Array) => decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
    end: () => decoder.end() ?? "",
  };
}

export async function* decodeStream(chunks: AsyncIterable<Uint8Array>, encoding: TEncoding): AsyncGenerator<string> {
  const decoder = textDecoder(encoding);
  for await (const chunk of chunks) {
    const text = decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Comma, semicolon, tab or pipe: whichever splits the first lines into the most consistent columns. */
export function detectDelimiter(headText: string): TDelimiter {
  // Only whole lines: a cut-off last line would skew the guess.
  const cut = headText.lastIndexOf("\n");
  const sample = cut > 0 ? headText.slice(0, cut) : headText;
  const guess = Papa.parse<string[]>(sample, {
    preview: 50,
    skipEmptyLines: "greedy",
    delimitersToGuess: [...DELIMITERS],
  }).meta.delimiter;
  return (DELIMITERS as readonly string[]).includes(guess) ? (guess as TDelimiter) : ",";
}

/** One record of the file: its values, and a sentence when it could not be read cleanly. */
export interface CsvRecord {
  values: string[];
  error: string | null;
}

const parseErrors: Record<string, string> = {
  MissingQuotes: 'a quoted value is never closed (a " is missing), so the rest of the file is read as one value',
  InvalidQuotes: "a quote inside a value is not doubled",
  UndetectableDelimiter: "no delimiter found",
  TooFewFields: "fewer values than columns",
  TooManyFields: "more values than columns",
};

/**
 * Reads CSV records from a stream of text, `batchSize` at a time, with Papa Parse: quoted values
 * with embedded delimiters, quotes and newlines. The parser pauses while a batch is worked on, so
 * memory stays at one batch whatever the file's size.
 */
/**
 * The line ending of a text, Windows (\r\n), Unix (\n) or old Mac (\r): the one that ends its first
 * line (the header row). A quoted cell further on may hold other line breaks (a street typed over
 * two lines on Windows inside a Unix file), which are values, not row ends.
 */
export function detectNewline(text: string): "\r\n" | "\n" | "\r" {
  const i = text.search(/[\r\n]/);
  if (i < 0 || text[i] === "\n") return "\n";
  return text[i + 1] === "\n" ? "\r\n" : "\r";
}

/**
 * The text of a stream with its line ending found first (from the text up to the first line
 * break, or 64 KB): Papa Parse guesses it from its first chunk alone, which may hold no line
 * break at all, and a wrong guess leaves a \r at the end of every row's last value.
 */
async function withNewline(
  text: AsyncIterable<string>,
): Promise<{ newline: "\r\n" | "\n" | "\r"; rest: AsyncIterable<string> }> {
  const it = text[Symbol.asyncIterator]();
  let head = "";
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    head += next.value;
    const lf = head.indexOf("\n");
    const cr = head.indexOf("\r");
    if ((lf >= 0 && (cr < 0 || cr < lf)) || head.length >= 65536 || (cr >= 0 && cr < head.length - 1)) break;
  }
  async function* rest() {
    if (head) yield head;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { newline: detectNewline(head.slice(0, 65536)), rest: rest() };
}

export async function* csvBatches(
  source: AsyncIterable<string>,
  delimiter: string,
  batchSize: number,
): AsyncGenerator<CsvRecord[]> {
  const { newline, rest: text } = await withNewline(source);
  const ready: CsvRecord[][] = [];
  let batch: CsvRecord[] = [];
  let done = false;
  let failure: unknown = null;
  let paused = false;
  let parser: Papa.Parser | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  Papa.parse<string[]>(Readable.from(text), {
    delimiter,
    newline,
    step(result, p) {
      parser = p;
      const error = result.errors[0];
      batch.push({ values: result.data, error: error ? (parseErrors[error.code] ?? error.message) : null });
      if (batch.length >= batchSize) {
        ready.push(batch);
        batch = [];
        paused = true;
        p.pause();
        notify();
      }
    },
    complete() {
      if (batch.length) ready.push(batch);
      batch = [];
      done = true;
      notify();
    },
    error(error: unknown) {
      failure = error;
      done = true;
      notify();
    },
  });
  try {
    for (;;) {
      const next = ready.shift();
      if (next) {
        yield next;
        continue;
      }
      if (failure) throw failure;
      if (done) return;
      if (paused && parser) {
        paused = false;
        (parser as Papa.Parser).resume();
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (ready.length || done) notify();
      });
    }
  } finally {
    if (!done && parser) (parser as Papa.Parser).abort();
  }
}

/** Whether a record is an empty line (it keeps its row number but is not a row). */
export const isBlankRecord = (values: string[]) => values.every((v) => v.trim() === "");

/**
 * Counts the records of a CSV as it streams, without building them: line breaks outside quoted
 * values, skipping blank lines (only delimiters and spaces). A quote opens a quoted value only at
 * the start of a value, as Papa Parse reads it. This is the upload's quick count, for the row limit
 * and the progress bar; the import itself reads every row with Papa Parse and records the exact
 * count when it ends.
 */
const QUOTE = 34;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** A quoted value longer than this (characters or bytes) is a quote that went wrong: no field holds a thousandth of it. */
export const MAX_QUOTED_VALUE = 1024 * 1024;

export class RecordCounter {
  records = 0;
  /** The physical line being read (1-based): line breaks inside quoted values count too, as an editor shows them. */
  line = 1;
  /** Where the quoted value being read (or the last one) opened. */
  private quoteLine = 0;
  private quotedLength = 0;
  /** The line of a quoted value that ran past MAX_QUOTED_VALUE, once one did. */
  longQuoteLine: number | null = null;
  private lastCrLine = false;
  private quoted = false;
  private afterQuote = false;
  private fieldStart = true;
  private content = false;
  private lastCr = false;

  private readonly delimiterCode: number;
  private readonly crIsBreak: boolean;

  constructor(delimiter: string, newline: "\r\n" | "\n" | "\r") {
    this.delimiterCode = delimiter.charCodeAt(0);
    this.crIsBreak = newline === "\r";
  }

  /** Counts text (any encoding once decoded). */
  push(text: string): void {
    for (let i = 0; i < text.length; i++) this.step(text.charCodeAt(i));
  }

  /**
   * Counts bytes of an ASCII-compatible encoding (UTF-8, Windows-1252) without decoding them:
   * delimiters, quotes and line breaks are single bytes there, never part of another character.
   */
  pushBytes(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) this.step(bytes[i]);
  }

  private step(ch: number): void {
    if (ch === LF) {
      if (!(this.lastCrLine && this.crIsBreak)) this.line++;
    } else if (ch === CR && this.crIsBreak) this.line++;
    this.lastCrLine = ch === CR;
    if (this.quoted) {
      if (++this.quotedLength > MAX_QUOTED_VALUE && this.longQuoteLine === null) this.longQuoteLine = this.quoteLine;
      if (ch === QUOTE) {
        this.afterQuote = !this.afterQuote; // a second quote in a row is a literal quote
        return;
      }
      if (!this.afterQuote) return;
      // The quote before closed the value.
      this.quoted = false;
      this.afterQuote = false;
    }
    if (ch === LF || (ch === CR && this.crIsBreak)) {
      if (ch === LF && this.lastCr && this.crIsBreak) {
        this.lastCr = false;
        return;
      }
      if (this.content) this.records++;
      this.content = false;
      this.fieldStart = true;
      this.lastCr = ch === CR;
      return;
    }
    this.lastCr = false;
    if (ch === this.delimiterCode) {
      this.fieldStart = true;
      return;
    }
    if (ch === QUOTE && this.fieldStart) {
      this.quoteLine = this.line;
      this.quotedLength = 0;
      this.quoted = true;
      this.afterQuote = false;
      this.content = true;
      this.fieldStart = false;
      return;
    }
    if (ch !== CR && ch !== SPACE && ch !== TAB) this.content = true;
    this.fieldStart = false;
  }

  /**
   * After end(): the line of a quoted value that never closes (the rest of the file would be read
   * as that one value), or null when every quote closes.
   */
  unclosedQuoteLine: number | null = null;

  end(): number {
    if (this.quoted && !this.afterQuote) {
      this.content = true;
      this.unclosedQuoteLine = this.quoteLine;
    }
    if (this.content) this.records++;
    this.content = false;
    return this.records;
  }
}
