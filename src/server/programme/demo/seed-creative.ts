import type { Design } from "@/generated/prisma/client";
import { checkImageUpload } from "@/server/programme/brand/image-upload";
import type { Db } from "@/server/ground/db";
import { draftData, loadRenderContext, renderDraft } from "@/server/programme/drafts/render";
import { primaryFont } from "@/server/ground/render/fonts";

/** A wordmark logo drawn from the bundled font's outlines (an SVG with paths only, as an upload would be after sanitising). */
function wordmarkSvg(name: string, color: string, accent: string): string {
  const font = primaryFont("noto-sans", 700).font;
  const run = font.layout(name.toUpperCase());
  const size = 64;
  const scale = size / font.unitsPerEm;
  let x = 96;
  const paths = run.glyphs.map((g, i) => {
    const d = g.path.toSVG();
    const out = `<path transform="translate(${x.toFixed(1)} 78) scale(${scale} ${-scale})" d="${d}" fill="${color}"/>`;
    x += run.positions[i].xAdvance * scale;
    return out;
  });
  const width = Math.ceil(x + 8);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="100" viewBox="0 0 ${width} 100"><rect x="4" y="14" width="72" height="72" rx="16" fill="${accent}"/><path d="M22 70 L40 28 L58 70 Z" fill="#ffffff"/>${paths.join("")}</svg>`;
}

const BRANDS = {
  acme: {
    primaryColor: "#1c3d5a",
    accentColor: "#f08c00",
    textColor: "#1f2328",
    headingFont: "noto-sans",
    bodyFont: "noto-sans",
    handwritingFont: "caveat",
    returnAddressLine1: "415 Mission St",
    returnCity: "San Francisco",
    returnRegion: "CA",
    returnPostalCode: "94105",
  },
  globex: {
    primaryColor: "#2b8a3e",
    accentColor: "#1971c2",
    textColor: "#212529",
    headingFont: "noto-serif",
    bodyFont: "noto-sans",
    handwritingFont: "patrick-hand",
    returnAddressLine1: "1 Cyclotron Rd",
    returnCity: "Berkeley",
    returnRegion: "CA",
    returnPostalCode: "94720",
  },
} as const;

/** The demo's brand kit: colours, fonts, a wordmark logo, return address, sign-off and default destination. */
export async function seedBrandKit(
  db: Db,
  p: { workspaceId: string; handle: "acme" | "globex"; name: string; ownerName: string },
) {
  const b = BRANDS[p.handle];
  const logo = await checkImageUpload(
    `data:image/svg+xml;base64,${Buffer.from(wordmarkSvg(p.name, b.primaryColor, b.accentColor)).toString("base64")}`,
    "logo",
  );
  const data = {
    ...b,
    companyName: p.name,
    returnCountry: "US",
    signOff: `${p.ownerName}, ${p.name}`,
    destinationUrl: `https://www.${p.handle}.example/welcome`,
    logo: new Uint8Array(logo.bytes),
    logoType: logo.type,
    logoWidth: logo.width,
    logoHeight: logo.height,
  };
  await db.brandKit.upsert({
    where: { workspaceId: p.workspaceId },
    create: { workspaceId: p.workspaceId, ...data },
    update: {},
  });
}

/** Designs in three formats, found by name so that a second run adds nothing. */
export async function seedDesigns(db: Db, p: { workspaceId: string }) {
  const design = async (
    name: string,
    data: Omit<Design, "id" | "workspaceId" | "name" | "createdAt" | "updatedAt" | "blocks" | "colors"> & {
      blocks?: object;
      colors?: object;
    },
  ) =>
    (await db.design.findFirst({ where: { workspaceId: p.workspaceId, name } })) ??
    db.design.create({
      data: { workspaceId: p.workspaceId, name, ...data, blocks: data.blocks ?? {}, colors: data.colors ?? {} },
    });
  const followUp = await design("Trial follow-up postcard", {
    format: "postcard",
    size: "6x9",
    layout: "bold",
    image: "waves",
    giftItem: null,
  });
  const launch = await design("Spring launch postcard", {
    format: "postcard",
    size: "6x9",
    layout: "split",
    image: "sunrise",
    giftItem: null,
    blocks: {
      headline: "{{firstName|Hello}}, spring is when {{company|your team}} plans",
      body: "Hi {{firstName|there}},\n\nWe built a one-page plan for {{company|your team}}: three changes that cut onboarding time in half, with what each costs.\n\nIt is yours to keep, whether or not we ever work together.",
      cta: "Scan for the plan we made for {{company|you}}",
    },
  });
  const note = await design("Thank-you note", {
    format: "handwritten",
    size: "5x7",
    layout: "lined",
    image: "none",
    giftItem: null,
  });
  const letter = await design("Executive letter", {
    format: "letter",
    size: "us_letter",
    layout: "classic",
    image: "logo",
    giftItem: null,
  });
  return { followUp, launch, note, letter };
}

/**
 * A draft postcard campaign with one rendered draft per audience member (the demo's derived
 * response codes keep them the same on every run) and one recipient's own copy.
 */
export async function seedCreativeCampaign(
  db: Db,
  p: {
    workspaceId: string;
    handle: string;
    audienceId: string;
    designId: string;
    derive: (label: string, length: number) => string;
  },
) {
  const name = "Spring launch postcards (demo)";
  const campaign =
    (await db.campaign.findFirst({ where: { workspaceId: p.workspaceId, name } })) ??
    (await db.campaign.create({
      data: {
        workspaceId: p.workspaceId,
        name,
        format: "postcard",
        status: "draft",
        audienceId: p.audienceId,
        designId: p.designId,
        acceptsApiEvents: true,
        holdoutShare: 0.2,
        budgetCents: 60_000,
        destinationUrl: `https://www.${p.handle}.example/spring`,
      },
    }));
  if ((await db.draft.count({ where: { campaignId: campaign.id } })) > 0) return campaign;
  const ctx = await loadRenderContext(db, { workspaceId: p.workspaceId, campaign });
  const members = await db.audienceMember.findMany({
    where: { audienceId: p.audienceId },
    orderBy: { contactId: "asc" },
    select: { contact: { include: { account: { select: { name: true, domain: true } } } } },
  });
  const now = new Date();
  const sorted = members.map((m) => m.contact).sort((a, b) => (a.crmId ?? "").localeCompare(b.crmId ?? ""));
  for (const [i, contact] of sorted.entries()) {
    const override =
      i === 0
        ? {
            headline: `${contact.firstName}, we saved you a seat at our spring roundtable`,
            body: `${contact.firstName}, you asked about the onboarding numbers at our last call. The plan on the other side has them, and I kept a seat for you at our spring roundtable in case you want to see it in person.`,
          }
        : null;
    const codes = {
      sid: p.derive(`draft-sid:${contact.crmId}`, 16),
      responseCode: p.derive(`draft-code:${contact.crmId}`, 10),
    };
    const rendered = await renderDraft(ctx, contact, override, codes);
    await db.draft.create({
      data: {
        workspaceId: p.workspaceId,
        campaignId: campaign.id,
        contactId: contact.id,
        designId: p.designId,
        ...draftData(rendered, now),
        ...(override ? { overrides: override, editedAt: now, editedBy: "Demo owner" } : {}),
      },
    });
  }
  return campaign;
}
