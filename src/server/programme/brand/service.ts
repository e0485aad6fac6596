import type { BrandKit, PrismaClient } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import { noteDraftChange } from "@/server/records/campaign-records/draft-version";
import type { Db } from "@/server/ground/db";
import { HANDWRITING_FONTS, TEXT_FONTS, type TFontFamily } from "@/server/ground/render/fonts";
import { imageAssetAsync } from "@/server/ground/render/images";
import type { ImageAsset } from "@/server/ground/render/scene";
import { contrastWarnings } from "./contrast";
import { checkImageUpload } from "./image-upload";
import type { TBrandKit, TBrandKitUpdate } from "./schema";

export const DEFAULT_COLORS = { primary: "#1c3d5a", accent: "#1c7ed6", text: "#1f2328" };

const oneOf = <T extends string>(list: readonly T[], v: string, fallback: T): T =>
  (list as readonly string[]).includes(v) ? (v as T) : fallback;

function view(kit: BrandKit | null, workspaceName: string): TBrandKit {
  const colors = kit ? { primary: kit.primaryColor, accent: kit.accentColor, text: kit.textColor } : DEFAULT_COLORS;
  return {
    companyName: kit?.companyName ?? workspaceName,
    colors,
    fonts: {
      heading: oneOf(TEXT_FONTS, kit?.headingFont ?? "", "noto-sans"),
      body: oneOf(TEXT_FONTS, kit?.bodyFont ?? "", "noto-sans"),
      handwriting: oneOf(HANDWRITING_FONTS, kit?.handwritingFont ?? "", "caveat"),
    },
    logo:
      kit?.logo && kit.logoType
        ? {
            type: kit.logoType as "image/png" | "image/svg+xml",
            width: kit.logoWidth ?? 0,
            height: kit.logoHeight ?? 0,
          }
        : null,
    signature:
      kit?.signature && kit.signatureType
        ? { type: kit.signatureType as "image/png" | "image/svg+xml", width: 0, height: 0 }
        : null,
    returnAddress: kit?.returnAddressLine1
      ? {
          addressLine1: kit.returnAddressLine1,
          addressLine2: kit.returnAddressLine2,
          city: kit.returnCity,
          region: kit.returnRegion,
          postalCode: kit.returnPostalCode,
          country: kit.returnCountry,
        }
      : null,
    signOff: kit?.signOff ?? "",
    destinationUrl: kit?.destinationUrl ?? null,
    contrastWarnings: contrastWarnings(colors),
    updatedAt: kit?.updatedAt ?? null,
  };
}

/** The workspace's brand kit (defaults from the workspace's name until one is saved). */
export async function getBrandKit(db: Db, p: { workspaceId: string }): Promise<TBrandKit> {
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: p.workspaceId },
    select: { name: true, brandKit: true },
  });
  return view(workspace.brandKit, workspace.name);
}

/** Changes the brand kit; uploaded images are checked (and SVGs sanitised) before anything is written. */
export async function updateBrandKit(
  db: PrismaClient,
  p: { workspaceId: string; input: TBrandKitUpdate; actor: Actor },
): Promise<TBrandKit> {
  const { input } = p;
  const logo = input.logo ? await checkImageUpload(input.logo, "logo") : (input.logo as null | undefined);
  const signature = input.signature
    ? await checkImageUpload(input.signature, "signature")
    : (input.signature as null | undefined);
  const data = {
    ...(input.companyName !== undefined ? { companyName: input.companyName } : {}),
    ...(input.colors?.primary ? { primaryColor: input.colors.primary.toLowerCase() } : {}),
    ...(input.colors?.accent ? { accentColor: input.colors.accent.toLowerCase() } : {}),
    ...(input.colors?.text ? { textColor: input.colors.text.toLowerCase() } : {}),
    ...(input.fonts?.heading ? { headingFont: input.fonts.heading } : {}),
    ...(input.fonts?.body ? { bodyFont: input.fonts.body } : {}),
    ...(input.fonts?.handwriting ? { handwritingFont: input.fonts.handwriting } : {}),
    ...(logo !== undefined
      ? logo
        ? { logo: new Uint8Array(logo.bytes), logoType: logo.type, logoWidth: logo.width, logoHeight: logo.height }
        : { logo: null, logoType: null, logoWidth: null, logoHeight: null }
      : {}),
    ...(signature !== undefined
      ? signature
        ? { signature: new Uint8Array(signature.bytes), signatureType: signature.type }
        : { signature: null, signatureType: null }
      : {}),
    ...(input.returnAddress
      ? {
          returnAddressLine1: input.returnAddress.addressLine1,
          returnAddressLine2: input.returnAddress.addressLine2 || null,
          returnCity: input.returnAddress.city,
          returnRegion: input.returnAddress.region || null,
          returnPostalCode: input.returnAddress.postalCode,
          returnCountry: input.returnAddress.country,
        }
      : {}),
    ...(input.signOff !== undefined ? { signOff: input.signOff } : {}),
    ...(input.destinationUrl !== undefined ? { destinationUrl: input.destinationUrl } : {}),
  };
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: p.workspaceId }, select: { name: true } });
  const fields = Object.keys(input).filter((k) => input[k as keyof TBrandKitUpdate] !== undefined);
  const kit = await db.$transaction(async (tx) => {
    // Every draft campaign looks different now: their pending go-live cards described the old look.
    await noteDraftChange(tx, { workspaceId: p.workspaceId, where: { status: "draft" } });
    const saved = await tx.brandKit.upsert({
      where: { workspaceId: p.workspaceId },
      create: { workspaceId: p.workspaceId, companyName: input.companyName ?? workspace.name, ...data },
      update: data,
    });
    await recordAudit(
      tx,
      p.workspaceId,
      p.actor,
      "brand_kit.updated",
      { type: "brand_kit", id: p.workspaceId },
      { fields },
    );
    return saved;
  });
  return view(kit, workspace.name);
}

/** The brand kit's logo or signature as stored, for the owner's browser. */
export async function getBrandImage(db: Db, p: { workspaceId: string; which: "logo" | "signature" }) {
  const kit = await db.brandKit.findUnique({
    where: { workspaceId: p.workspaceId },
    select: { logo: true, logoType: true, signature: true, signatureType: true },
  });
  const bytes = p.which === "logo" ? kit?.logo : kit?.signature;
  const type = p.which === "logo" ? kit?.logoType : kit?.signatureType;
  return bytes && type ? { bytes: Buffer.from(bytes), type } : null;
}

/** What the renderer needs from the brand kit. */
export interface RenderBrand {
  companyName: string;
  colors: { primary: string; accent: string; text: string };
  fonts: { heading: TFontFamily; body: TFontFamily; handwriting: TFontFamily };
  logo: ImageAsset | null;
  signature: ImageAsset | null;
  /** The return address as entered; each piece prints it for its destination (returnAddressLines). */
  returnAddress: TBrandKit["returnAddress"];
  signOff: string;
  destinationUrl: string | null;
}

export async function brandForRender(db: Db, p: { workspaceId: string }): Promise<RenderBrand> {
  const workspace = await db.workspace.findUniqueOrThrow({
    where: { id: p.workspaceId },
    select: { name: true, brandKit: true },
  });
  const kit = workspace.brandKit;
  const v = view(kit, workspace.name);
  return {
    companyName: v.companyName,
    colors: v.colors,
    fonts: v.fonts,
    logo: kit?.logo && kit.logoType ? await imageAssetAsync(Buffer.from(kit.logo), kit.logoType, 1500) : null,
    signature:
      kit?.signature && kit.signatureType
        ? await imageAssetAsync(Buffer.from(kit.signature), kit.signatureType, 1200)
        : null,
    returnAddress: v.returnAddress,
    signOff: v.signOff,
    destinationUrl: v.destinationUrl,
  };
}
