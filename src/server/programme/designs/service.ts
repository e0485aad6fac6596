import type { Design, Prisma, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { brandForRender } from "@/server/programme/brand/service";
import { noteDraftChange } from "@/server/records/campaign-records/draft-version";
import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import { layoutPiece, LAYOUTS, piecePdf, piecePngAsync } from "@/server/ground/render";
import type { RenderInput, RenderIssue } from "@/server/ground/render/input";
import { DEFAULT_SIZE, sizeSpec, type TFormat } from "@/server/ground/render/page-specs";
import { composePiece, type DesignLike, SAMPLE_CONTACT } from "./compose";
import { SUGGESTED_BLOCKS } from "./defaults";
import { STANDARD_GIFT, type TGiftItem } from "./gift-catalog";
import { proofUrl } from "./proof-links";
import type { RecipientContact } from "./recipient";
import type { TBlocks, TDesign, TDesignChanges, TDesignCreate } from "./schema";
import { formatPlural } from "@/server/ground/render/format-words";

const notFound = () => new AppError("not_found", "No such design in this workspace; designs_list shows the designs.");

export function toDesignLike(
  d: Pick<Design, "format" | "size" | "layout" | "blocks" | "colors" | "image" | "giftItem">,
): DesignLike {
  return {
    format: d.format,
    size: d.size,
    layout: d.layout,
    blocks: (d.blocks ?? {}) as Partial<TBlocks>,
    colors: (d.colors ?? {}) as DesignLike["colors"],
    image: d.image as RenderInput["image"],
    giftItem: d.giftItem,
  };
}

function view(d: Design & { _count?: { campaigns: number } }): TDesign {
  const like = toDesignLike(d);
  return {
    id: d.id,
    name: d.name,
    format: d.format,
    size: d.size,
    layout: d.layout,
    blocks: { ...SUGGESTED_BLOCKS[d.format], ...like.blocks },
    colors: like.colors,
    image: like.image,
    giftItem: (d.giftItem as TGiftItem | null) ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    campaigns: d._count?.campaigns ?? 0,
  };
}

export async function requireDesign(db: Db, p: { workspaceId: string; designId: string }) {
  const design = await db.design.findFirst({
    where: { id: p.designId, workspaceId: p.workspaceId },
    include: { _count: { select: { campaigns: true } } },
  });
  if (!design) throw notFound();
  return design;
}

/** The workspace's designs, newest first, one page at a time. */
export async function listDesigns(
  db: Db,
  p: { workspaceId: string; format?: TFormat; cursor?: string | null; take: number },
) {
  if (
    p.cursor &&
    !(await db.design.findFirst({ where: { id: p.cursor, workspaceId: p.workspaceId }, select: { id: true } }))
  ) {
    throw new AppError("not_found", "The cursor names no design of this workspace; start again without a cursor.");
  }
  const rows = await db.design.findMany({
    where: { workspaceId: p.workspaceId, ...(p.format ? { format: p.format } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    include: { _count: { select: { campaigns: true } } },
  });
  return { designs: rows.slice(0, p.take).map(view), nextCursor: rows.length > p.take ? rows[p.take - 1].id : null };
}

export async function getDesign(db: Db, p: { workspaceId: string; designId: string }): Promise<TDesign> {
  return view(await requireDesign(db, p));
}

export async function createDesign(
  db: Db,
  p: { workspaceId: string; input: TDesignCreate; actor: Actor },
): Promise<TDesign> {
  const { input } = p;
  const design = await db.design.create({
    data: {
      workspaceId: p.workspaceId,
      name: input.name,
      format: input.format,
      size: input.size ?? DEFAULT_SIZE[input.format],
      layout: input.layout,
      blocks: { ...SUGGESTED_BLOCKS[input.format], ...input.blocks },
      colors: input.colors ?? {},
      image: input.image ?? "logo",
      giftItem: input.format === "gift" ? (input.giftItem ?? STANDARD_GIFT) : null,
    },
    include: { _count: { select: { campaigns: true } } },
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "design.created",
    { type: "design", id: design.id },
    { name: design.name, format: design.format },
  );
  return view(design);
}

/** Edits a design. A design that a live or paused campaign prints is frozen: copy it into a new design instead. */
export function updateDesign(prisma: PrismaClient, p: UpdateDesignParams): Promise<TDesign> {
  return prisma.$transaction((tx) => updateDesignIn(tx, p));
}

type UpdateDesignParams = { workspaceId: string; designId: string; changes: TDesignChanges; actor: Actor };

async function updateDesignIn(db: Db, p: UpdateDesignParams): Promise<TDesign> {
  const design = await requireDesign(db, p);
  // The campaigns printing this design are locked first (as going live locks them): draft campaigns
  // get a new draft version (their pending go-live cards expire), and a live or paused one refuses.
  const campaigns = await noteDraftChange(db, {
    workspaceId: p.workspaceId,
    where: { designId: design.id, status: { in: ["draft", "live", "paused"] } },
  });
  const running = campaigns.find((c) => c.status === "live" || c.status === "paused");
  if (running)
    throw new AppError(
      "invalid_state",
      `The ${running.status} campaign “${running.name}” prints this design, so it cannot change; create a new design (designs_create) and use it in a draft campaign.`,
    );
  const c = p.changes;
  const size = c.size ?? design.size;
  const layout = c.layout ?? design.layout;
  const problems: { pointer: string; detail: string }[] = [];
  if (!Object.hasOwn(LAYOUTS[design.format], layout))
    problems.push({
      pointer: "/layout",
      detail: `The ${design.format} layouts are ${Object.keys(LAYOUTS[design.format]).join(", ")}.`,
    });
  if (c.size && !sizeSpec(design.format, size))
    problems.push({ pointer: "/size", detail: `That size does not exist for ${formatPlural(design.format)}.` });
  if (problems.length) throw new AppError("validation_failed", problems[0].detail, { errors: problems });
  const updated = await db.design.update({
    where: { id: design.id, workspaceId: p.workspaceId },
    data: {
      ...(c.name !== undefined ? { name: c.name } : {}),
      size,
      layout,
      ...(c.blocks ? { blocks: { ...(design.blocks as object), ...c.blocks } } : {}),
      ...(c.colors ? { colors: { ...(design.colors as object), ...c.colors } } : {}),
      ...(c.image ? { image: c.image } : {}),
      ...(c.giftItem && design.format === "gift" ? { giftItem: c.giftItem } : {}),
    },
    include: { _count: { select: { campaigns: true } } },
  });
  await recordAudit(db, p.workspaceId, p.actor, "design.updated", { type: "design", id: design.id }, {
    fields: Object.keys(c),
  } as Prisma.InputJsonValue);
  return view(updated);
}

/** A contact of the workspace with its account, as pieces use it. */
export async function loadRecipient(db: Db, p: { workspaceId: string; contactId: string }): Promise<RecipientContact> {
  const contact = await db.contact.findFirst({
    where: { id: p.contactId, workspaceId: p.workspaceId },
    include: { account: { select: { name: true, domain: true } } },
  });
  if (!contact)
    throw new AppError("not_found", "No such contact in this workspace; contacts_list shows the contacts.", {
      errors: [{ pointer: "/contactId", detail: "No such contact in this workspace." }],
    });
  return contact;
}

export interface PreviewResult {
  pages: { label: string; png: Buffer }[];
  issues: RenderIssue[];
  missingFields: string[];
  fallbacks: string[];
  recipient: { contactId: string | null; name: string };
  specimen: boolean;
}

/**
 * Renders a design (saved, or the fields being edited) for one contact, or for a sample recipient:
 * the pages as PNGs from the same scene the print PDF is written from.
 */
export async function previewDesign(
  db: Db,
  p: {
    workspaceId: string;
    design: DesignLike;
    contactId?: string | null;
    widthPx?: number;
    guides?: boolean;
    pdf?: boolean;
  },
) {
  const [brand, workspace, contact] = await Promise.all([
    brandForRender(db, p),
    db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { plan: true } }),
    p.contactId
      ? loadRecipient(db, { workspaceId: p.workspaceId, contactId: p.contactId })
      : Promise.resolve(SAMPLE_CONTACT),
  ]);
  const composed = composePiece({
    title: "Design preview",
    brand,
    design: p.design,
    contact,
    response: { url: "https://example.com/r/PREVIEW?via=qr", label: "example.com/r/PREVIEW" },
    specimen: workspace.plan === "audit",
  });
  const rendered = layoutPiece(composed.input);
  const result: PreviewResult = {
    pages: await Promise.all(
      rendered.scene.pages.map(async (page, i) => ({
        label: page.label,
        png: await piecePngAsync(rendered, i, { widthPx: p.widthPx ?? 900, guides: p.guides ?? true }),
      })),
    ),
    issues: rendered.issues,
    missingFields: composed.missing,
    fallbacks: composed.fallbacks,
    recipient: { contactId: p.contactId ?? null, name: `${contact.firstName} ${contact.lastName}`.trim() },
    specimen: workspace.plan === "audit",
  };
  return { ...result, pdf: p.pdf ? await piecePdf(rendered) : null };
}

/** The preview of a saved design, with a proof link an agent can open. */
export async function previewSavedDesign(
  db: Db,
  p: { workspaceId: string; designId: string; contactId?: string | null; widthPx?: number },
) {
  const design = await requireDesign(db, p);
  const preview = await previewDesign(db, {
    workspaceId: p.workspaceId,
    design: toDesignLike(design),
    contactId: p.contactId,
    widthPx: p.widthPx,
    guides: false,
  });
  return {
    ...preview,
    proofUrl: await proofUrl(db, { kind: "design", id: design.id, workspaceId: p.workspaceId, contactId: p.contactId }),
  };
}
