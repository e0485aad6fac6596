import { expect, test } from "@playwright/test";
import { demo } from "../support/demo";
import { signUp } from "../support/pages";

/**
 * A 50 MB import must not stall the rest of the service. While a 50 MB CSV is
 * uploaded and imported, /api/health is asked again and again; its 99th percentile stays under
 * 250 ms. On PostgreSQL `npm start` runs the import in its worker process (scripts/worker-process.ts),
 * off the server's event loop. This project runs after every other one, alone, so the figure is the
 * import's effect and not another spec's.
 */
const TARGET_BYTES = 49 * 1024 * 1024;
const P99_LIMIT_MS = 250;

function fiftyMegabyteCsv(): { csv: Buffer; rows: number } {
  const header = "First Name,Last Name,Email,Company,Address,City,State,Zip,Country,Notes\n";
  // About 290 bytes a row: 49 MB stays under an import's 200,000-row limit.
  const notes =
    "Met at the spring field event; asked for the case study, the pricing sheet for the enterprise tier and a follow-up call early in the new quarter with their head of operations";
  const parts: string[] = [header];
  let bytes = header.length;
  let rows = 0;
  while (bytes < TARGET_BYTES) {
    const line = `Pat${rows},Lee${rows},pat.lee.${rows}@load${rows % 5000}.example,Load Co ${rows % 5000},${100 + (rows % 9000)} Market Street,Springfield,IL,627${String(rows % 100).padStart(2, "0")},US,${notes} ${rows}\n`;
    parts.push(line);
    bytes += line.length;
    rows++;
  }
  return { csv: Buffer.from(parts.join("")), rows };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

test("a 50 MB import runs while /api/health keeps answering: p99 under 250 ms", async ({ page, baseURL }) => {
  test.skip(
    demo().database === "pglite",
    "The embedded database lives inside the server's process, so there its background work shares that process; on PostgreSQL it runs in a worker process of its own.",
  );
  test.setTimeout(300_000);
  const { workspaceId } = await signUp(page, { name: "Lena Load", company: "Load Co" });
  const { csv, rows } = fiftyMegabyteCsv();
  expect(csv.length).toBeGreaterThan(48 * 1024 * 1024);
  expect(rows).toBeLessThan(200_000);

  // /api/health, one request after another, for as long as the import runs.
  const latencies: number[] = [];
  let measuring = true;
  const probe = (async () => {
    while (measuring) {
      const started = performance.now();
      const res = await fetch(`${baseURL}/api/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  try {
    const upload = await page.request.post(`/api/imports?workspaceId=${workspaceId}`, {
      headers: { "X-File-Name": "load-50mb.csv", "Content-Type": "text/csv" },
      data: csv,
      timeout: 120_000,
    });
    expect(upload.status(), await upload.text()).toBe(201);
    const uploaded = (await upload.json()) as { importId: string; columns: string[]; suggestedMapping?: unknown[] };
    const mapping = [
      "firstName",
      "lastName",
      "email",
      "company",
      "addressLine1",
      "city",
      "region",
      "postalCode",
      "country",
      "custom:notes",
    ];
    const start = await page.request.post("/api/trpc/contactImport.start", {
      data: { json: { workspaceId, importId: uploaded.importId, mapping } },
    });
    expect(start.status(), await start.text()).toBe(200);

    let status = "";
    let created = 0;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const input = encodeURIComponent(JSON.stringify({ json: { workspaceId, importId: uploaded.importId } }));
      const res = await page.request.get(`/api/trpc/contactImport.get?input=${input}`);
      const view = (await res.json()).result.data.json as { status: string; created: number };
      status = view.status;
      created = view.created;
      if (["succeeded", "failed", "cancelled"].includes(status)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(status).toBe("succeeded");
    expect(created).toBe(rows);
  } finally {
    measuring = false;
    await probe;
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  console.log(
    `[import-health] ${rows} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB: /api/health ${sorted.length} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`,
  );
  expect(sorted.length).toBeGreaterThan(100);
  expect(p99).toBeLessThan(P99_LIMIT_MS);
});
