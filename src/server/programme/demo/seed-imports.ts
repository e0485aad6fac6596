import type { PrismaClient } from "@/generated/prisma/client";
import type { Actor } from "@/server/ground/audit/service";
import { createAudience } from "@/server/records/audiences/service";
import { addSuppressions } from "@/server/records/contacts/suppressions-service";
import { getImport, runImportNow, startImport } from "@/server/programme/imports/service";
import { receiveUpload } from "@/server/programme/imports/upload";

export const DEMO_IMPORT_FILE = "trade-show-leads-demo.csv";

/**
 * A trade-show lead list as people export it: mixed country spellings, a free-mail address, a row
 * repeated with other case, one row with no name and no email (refused) and an unknown country
 * (a warning). Its companies are not the demo CRM's, so the campaigns' audiences stay as they are.
 */
export function demoLeadsCsv(): string {
  const rows = [
    [
      "First Name",
      "Last Name",
      "Email Address",
      "Company Name",
      "Job Title",
      "Street",
      "City",
      "State/Province",
      "Zip/Postal Code",
      "Country",
      "Booth visit",
    ],
    [
      "Hannah",
      "Schulz",
      "hannah.schulz@brennwerk.de",
      "Brennwerk GmbH",
      "Head of Logistics",
      "Torstraße 140",
      "Berlin",
      "",
      "10119",
      "Deutschland",
      "Day 1",
    ],
    [
      "Lukas",
      "Meyer",
      "lukas.meyer@brennwerk.de",
      "Brennwerk GmbH",
      "IT Director",
      "Torstraße 140",
      "Berlin",
      "",
      "10119",
      "de",
      "Day 1",
    ],
    [
      "Oliver",
      "Grant",
      "oliver.grant@fernhollow.co.uk",
      "Fernhollow Ltd",
      "Finance Director",
      "12 Chapel Street",
      "Manchester",
      "",
      "M3 5JZ",
      "UK",
      "Day 2",
    ],
    [
      "Amelia",
      "Price",
      "amelia.price@fernhollow.co.uk",
      "Fernhollow Ltd",
      "Operations Lead",
      "12 Chapel Street",
      "Manchester",
      "",
      "M3 5JZ",
      "United Kingdom",
      "Day 2",
    ],
    [
      "Jack",
      "Turner",
      "jack.turner@gmail.com",
      "",
      "Consultant",
      "8 Harbour Road",
      "Bristol",
      "",
      "BS1 5DB",
      "GB",
      "Day 2",
    ],
    [
      "Sofia",
      "Rossi",
      "sofia.rossi@pietralucegroup.it",
      "Pietraluce Group",
      "CMO",
      "Via Torino 21",
      "Milano",
      "MI",
      "20123",
      "Italy",
      "Day 1",
    ],
    [
      "Ethan",
      "Brooks",
      "ethan.brooks@coppervale.com",
      "Coppervale Systems",
      "VP Engineering",
      "410 Congress St",
      "Portland",
      "ME",
      "04101",
      "USA",
      "Day 1",
    ],
    [
      "Mia",
      "Collins",
      "mia.collins@coppervale.com",
      "Coppervale Systems",
      "Procurement",
      "410 Congress St",
      "Portland",
      "ME",
      "04101",
      "U.S.",
      "Day 3",
    ],
    [
      "Noah",
      "Bennett",
      "noah.bennett@tallgrassbio.com",
      "Tallgrass Bio",
      "Lab Operations",
      "2100 Main St",
      "Lincoln",
      "NE",
      "68508",
      "United States",
      "Day 3",
    ],
    [
      "Chloé",
      "Martin",
      "chloe.martin@lumiereverte.fr",
      "Lumière Verte",
      "Directrice achats",
      "18 Rue de la République",
      "Lyon",
      "",
      "69002",
      "France",
      "Day 2",
    ],
    [
      "Liam",
      "Murphy",
      "liam.murphy@harbourline.ie",
      "Harbourline",
      "Fleet Manager",
      "5 Grand Canal Quay",
      "Dublin",
      "",
      "D02 H210",
      "Ireland",
      "Day 3",
    ],
    [
      "Ava",
      "Nguyen",
      "ava.nguyen@coppervale.com",
      "Coppervale Systems",
      "Customer Success",
      "410 Congress St",
      "Portland",
      "ME",
      "04101",
      "US",
      "Day 3",
    ],
    [
      "Ethan",
      "Brooks",
      "Ethan.Brooks@Coppervale.com",
      "Coppervale Systems",
      "VP Engineering",
      "410 Congress St",
      "Portland",
      "ME",
      "04101",
      "USA",
      "Day 2",
    ],
    ["", "", "", "Unknown visitor", "", "", "", "", "", "", "Day 1"],
    [
      "Kenji",
      "Sato",
      "kenji.sato@kitsunelabs.jp",
      "Kitsune Labs",
      "CTO",
      "1-2-3 Shibuya",
      "Tokyo",
      "",
      "150-0002",
      "Japan",
      "Day 1",
    ],
    [
      "Isabel",
      "Fuentes",
      "isabel.fuentes@solmarenergia.es",
      "Solmar Energía",
      "Head of Energy",
      "Calle de Alcalá 45",
      "Madrid",
      "",
      "28014",
      "Spain (Canary Islands)",
      "Day 2",
    ],
  ];
  return rows.map((r) => r.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(",")).join("\r\n");
}

async function* bytes(text: string) {
  yield new TextEncoder().encode(text);
}

/**
 * The demo's import history: the lead list imported into its own audience, an audience made from
 * a filter (its UK contacts), and suppressions of each kind. Runs once per workspace (found by the
 * file's name), through the same upload, job and services as a person's import.
 */
export async function seedDemoImport(prisma: PrismaClient, p: { workspaceId: string; ownerLabel: string }) {
  const done = await prisma.contactImport.findFirst({
    where: { workspaceId: p.workspaceId, fileName: DEMO_IMPORT_FILE },
  });
  if (done) return { importId: done.id, audienceId: done.audienceId };
  const actor: Actor = { kind: "user", id: null, label: p.ownerLabel };
  const upload = await receiveUpload(prisma, {
    workspaceId: p.workspaceId,
    fileName: DEMO_IMPORT_FILE,
    body: bytes(demoLeadsCsv()),
    actor,
  });
  const started = await startImport(prisma, {
    workspaceId: p.workspaceId,
    importId: upload.importId,
    mapping: upload.suggestedMapping,
    onExisting: "update",
    audienceName: "Trade show leads (demo)",
    actor,
  });
  let view = await runImportNow(prisma, {
    workspaceId: p.workspaceId,
    importId: upload.importId,
    jobId: started.job!.jobId,
  });
  // A worker of this process may have taken the job first: wait for it.
  for (let i = 0; i < 300 && !["succeeded", "failed", "cancelled"].includes(view.status); i++) {
    await new Promise((r) => setTimeout(r, 100));
    view = await getImport(prisma, { workspaceId: p.workspaceId, importId: upload.importId });
  }
  if (!(await prisma.audience.findFirst({ where: { workspaceId: p.workspaceId, name: "UK leads (demo)" } }))) {
    await createAudience(prisma, {
      workspaceId: p.workspaceId,
      name: "UK leads (demo)",
      filter: { audienceId: view.audienceId, country: "GB" },
      actor,
    });
  }
  await addSuppressions(prisma, {
    workspaceId: p.workspaceId,
    source: "owner",
    actor,
    entries: [
      { email: "mia.collins@coppervale.com", reason: "opt-out" },
      { domain: "kitsunelabs.jp", reason: "competitor" },
      {
        address: { addressLine1: "5 Grand Canal Quay", city: "Dublin", postalCode: "D02 H210", country: "IE" },
        reason: "bounced",
      },
    ],
  });
  return { importId: upload.importId, audienceId: view.audienceId };
}
