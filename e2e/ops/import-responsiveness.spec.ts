import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "../support/env";
import { signUp } from "../support/pages";

/**
 * The web server stays responsive while it imports a 50 MB file (issue 27, row 4: a 48 MB CSV once
 * held /api/health up to 4.5 s). On the embedded database the import runs inside the server: its
 * parsing and checking in a thread, its writes in short transactions. /api/health is asked one
 * request after another from the upload's first byte to the import's end; p99 must stay under 250 ms.
 */
const MB = 1024 * 1024;
const ROWS = 100_000;

/** A CRM export of ROWS people, padded with a long notes column to just under 50 MB. */
function bigCsv(): Buffer {
  const header = "First Name,Last Name,Email,Company,Street,City,State,Zip,Country,Notes\n";
  const lines: string[] = [header];
  let size = header.length;
  const budget = 50 * MB - 1024;
  const notesLength = Math.floor((budget - size) / ROWS) - 110;
  for (let i = 0; i < ROWS; i++) {
    const notes = `Met at booth ${i}; `.padEnd(notesLength, "asked about pricing and delivery ");
    const line = `Person${i},Tester${i % 997},person${i}@load-${i % 500}.example,Load Co ${i % 500},${(i % 9000) + 1} Main St,Boston,MA,02116,United States,"${notes}"\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(""));
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}

test("/api/health answers within 250 ms (p99) while a 50 MB file is uploaded and imported", async ({ page }) => {
  test.setTimeout(20 * 60_000);
  const { workspaceId } = await signUp(page, { name: "Lena Load", company: "Load Testing Ltd" });
  const csv = bigCsv();
  expect(csv.byteLength).toBeGreaterThan(49 * MB);
  expect(csv.byteLength).toBeLessThanOrEqual(50 * MB);

  // Health, one request after another, until told to stop.
  const samples: number[] = [];
  const failures: string[] = [];
  let measuring = true;
  const probe = (async () => {
    while (measuring) {
      const started = performance.now();
      const reply = await fetch(`${E2E_BASE_URL}/api/health`, { cache: "no-store" }).catch((error: Error) => error);
      samples.push(performance.now() - started);
      if (reply instanceof Error) failures.push(reply.message);
      else {
        if (reply.status !== 200) failures.push(`status ${reply.status}`);
        await reply.arrayBuffer();
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  try {
    const uploaded = await page.request.post(`/api/imports?workspaceId=${workspaceId}`, {
      headers: { "X-File-Name": "load-test.csv", "Content-Type": "text/csv" },
      data: csv,
      timeout: 10 * 60_000,
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const upload = await uploaded.json();
    expect(upload).toMatchObject({ rows: ROWS, columns: ["First Name", "Last Name", "Email", "Company", "Street", "City", "State", "Zip", "Country", "Notes"] });

    const started = await page.request.post("/api/trpc/contactImport.start", {
      data: { json: { workspaceId, importId: upload.importId, mapping: upload.suggestedMapping, onExisting: "update" } },
    });
    expect(started.status(), await started.text()).toBe(200);

    // The import's end, read as the owner's page reads it.
    const input = encodeURIComponent(JSON.stringify({ json: { workspaceId, importId: upload.importId } }));
    let view: { status: string; created: number; rows: number; refusedCount: number } | null = null;
    await expect
      .poll(
        async () => {
          const reply = await page.request.get(`/api/trpc/contactImport.get?input=${input}`);
          view = (await reply.json()).result?.data?.json ?? null;
          return view?.status;
        },
        { timeout: 18 * 60_000, intervals: [1000] },
      )
      .toMatch(/^(succeeded|failed|cancelled)$/);
    expect(view).toMatchObject({ status: "succeeded", rows: ROWS, created: ROWS, refusedCount: 0 });
  } finally {
    measuring = false;
    await probe;
  }

  expect(failures, "every health check answered 200").toEqual([]);
  expect(samples.length).toBeGreaterThan(100);
  const worst = Math.max(...samples);
  console.log(`/api/health during the import: ${samples.length} checks, p50 ${Math.round(percentile(samples, 0.5))} ms, p99 ${Math.round(percentile(samples, 0.99))} ms, worst ${Math.round(worst)} ms`);
  expect(percentile(samples, 0.99), "p99 of /api/health while importing 50 MB").toBeLessThan(250);
});
