import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { bytesOf } from "@/test/imports";
import {
  csvBatches,
  decideEncoding,
  decodeStream,
  detectDelimiter,
  detectNewline,
  RecordCounter,
  Utf8Check,
} from "./csv";
import { csvLine } from "@/server/ground/platform/csv-line";
import { splitFullName } from "./rows";

async function records(text: string, delimiter = ",", batch = 2) {
  const out: { values: string[]; error: string | null }[] = [];
  async function* pieces() {
    // Split in odd places: inside quotes, between \r and \n, inside a multi-byte character's string.
    for (let i = 0; i < text.length; i += 3) yield text.slice(i, i + 3);
  }
  for await (const b of csvBatches(pieces(), delimiter, batch)) out.push(...b);
  return out;
}

describe("reading CSV", () => {
  it("reads quoted values with delimiters, doubled quotes and newlines, across chunk boundaries", async () => {
    const rows = await records('name,note\r\n"Doe, Jane","said ""hi""\r\nthen left"\r\nBob,plain\r\n');
    expect(rows.map((r) => r.values)).toEqual([
      ["name", "note"],
      ["Doe, Jane", 'said "hi"\r\nthen left'],
      ["Bob", "plain"],
    ]);
  });

  it("reads Windows, Unix and old Mac line endings whatever the first chunk holds", async () => {
    for (const nl of ["\r\n", "\n", "\r"]) {
      const rows = await records(["first,last", "Ada,Lovelace", "Alan,Turing"].join(nl) + nl);
      expect(rows.map((r) => r.values)).toEqual([
        ["first", "last"],
        ["Ada", "Lovelace"],
        ["Alan", "Turing"],
      ]);
    }
  });

  it("reports an unclosed quote on the row it starts", async () => {
    const rows = await records('a,b\n1,"never closed\n2,3\n');
    expect(rows[1].error).toContain("never closed");
  });

  it("detects comma, semicolon, tab and pipe", () => {
    expect(detectDelimiter("First Name,Last Name,Email\nAda,L,a@b.c\n")).toBe(",");
    expect(detectDelimiter("Vorname;Nachname;E-Mail\nJörg;Müller;j@m.de\nAnna;Beck;a@b.de\n")).toBe(";");
    expect(detectDelimiter("first\tlast\temail\nAda\tL\ta@b.c\n")).toBe("\t");
    expect(detectDelimiter("a|b|c\n1|2|3\n")).toBe("|");
    // Commas inside quoted values do not fool it.
    expect(detectDelimiter('name;note\n"Doe, Jane";"a, b, c"\n')).toBe(";");
  });
});

describe("encodings", () => {
  const text = "Name;Ort\nJörg Müller;Zürich\nZoë;Köln €\n";
  const decode = async (bytes: Uint8Array, encoding: Parameters<typeof decodeStream>[1]) => {
    let out = "";
    for await (const s of decodeStream(bytesOf(bytes, 5), encoding)) out += s;
    return out;
  };
  /** The encoding found, the same whatever the chunk size (characters split anywhere). */
  const check = (bytes: Uint8Array) => {
    const verdicts = [1, 2, 3, 5, 4096].map((size) => {
      const c = new Utf8Check();
      for (let i = 0; i < bytes.length; i += size) c.push(bytes.subarray(i, i + size));
      return decideEncoding(bytes, c.end());
    });
    expect(new Set(verdicts).size).toBe(1);
    return verdicts[0];
  };

  it("UTF-8 without a byte-order mark, characters split between chunks", async () => {
    const bytes = new TextEncoder().encode(text);
    expect(check(bytes)).toBe("utf-8");
    expect(await decode(bytes, "utf-8")).toBe(text);
  });

  it("UTF-8 with a byte-order mark (removed)", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect(check(bytes)).toBe("utf-8");
    expect(await decode(bytes, "utf-8")).toBe(text);
  });

  it("Windows-1252 (what Excel saves as CSV on Windows), the euro sign included", async () => {
    const bytes = new Uint8Array(iconv.encode(text, "win1252"));
    expect(bytes.includes(0x80)).toBe(true);
    expect(check(bytes)).toBe("windows-1252");
    expect(await decode(bytes, "windows-1252")).toBe(text);
  });

  it("UTF-16 with a byte-order mark (Excel's Unicode text)", async () => {
    const bytes = new Uint8Array(iconv.encode(text, "utf16le", { addBOM: true }));
    expect(check(bytes)).toBe("utf-16le");
    expect(await decode(bytes, "utf-16le")).toBe(text);
  });
});

describe("CSV exports", () => {
  it("write values a spreadsheet would run as formulas as text", () => {
    expect(csvLine(['=HYPERLINK("http://x")', "+1 555 0100", "-2", "@SUM(A1)", "plain", null, 7])).toBe(
      `"'=HYPERLINK(""http://x"")","'+1 555 0100","'-2","'@SUM(A1)",plain,,7\r\n`,
    );
  });
});

describe("full names", () => {
  it("splits Last, First and First Last, keeping particles with the last name", () => {
    expect(splitFullName("Doe, Jane")).toEqual({ firstName: "Jane", lastName: "Doe" });
    expect(splitFullName("Jane van der Berg")).toEqual({ firstName: "Jane", lastName: "van der Berg" });
    expect(splitFullName("  Cher ")).toEqual({ firstName: "Cher", lastName: "" });
    // Japanese script: family name first, as written.
    expect(splitFullName("山田 太郎")).toEqual({ firstName: "太郎", lastName: "山田" });
    expect(splitFullName("Taro Yamada")).toEqual({ firstName: "Taro", lastName: "Yamada" });
  });
});

describe("the upload's quick row count", () => {
  it("counts what Papa Parse reads: quoted newlines and delimiters, doubled quotes, blank lines, quotes inside unquoted values, every line ending", async () => {
    const samples = [
      'a,b\n1,"x\ny"\n\n2,"say ""hi"""\n3,5\'10" tall\n,\n4,last',
      'a;b\r\n"q;r";s\r\n\r\n"multi\r\nline";t\r\n',
      "a\tb\r1\t2\r3\t4\r",
      'name,city\nJörg,Zürich\n"Zoë, die",Köln\n',
      'h\n"unclosed\n1\n2\n',
    ];
    for (const text of samples) {
      const delimiter = detectDelimiter(text);
      const papa = (await records(text, delimiter, 100)).filter((r) => r.values.some((v) => v.trim() !== "")).length;
      const bytes = new TextEncoder().encode(text);
      for (const size of [1, 2, 7, 1000]) {
        const counter = new RecordCounter(delimiter, detectNewline(text));
        for (let i = 0; i < text.length; i += size) counter.push(text.slice(i, i + size));
        expect(counter.end(), JSON.stringify(text)).toBe(papa);
        const byBytes = new RecordCounter(delimiter, detectNewline(text));
        for (let i = 0; i < bytes.length; i += size) byBytes.pushBytes(bytes.subarray(i, i + size));
        expect(byBytes.end(), JSON.stringify(text)).toBe(papa);
      }
    }
  });
});
