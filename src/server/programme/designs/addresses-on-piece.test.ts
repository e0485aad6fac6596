import { writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { layoutPiece, piecePdf } from "@/server/ground/render/index";
import { brandForRender, updateBrandKit } from "@/server/programme/brand/service";
import { ZBrandKitUpdate } from "@/server/programme/brand/schema";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { hasPoppler, pdfPagePng, pdfText } from "@/test/pdf-tools";
import { composePiece, SAMPLE_CONTACT, standardDesign } from "./compose";

/** Both addresses of a piece as the proof prints them: the recipient's in its country's order, the return address with its country abroad. */

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});
const actor = { kind: "user" as const, id: null, label: "owner@example.test" };

async function brandFrom(returnAddress: Record<string, string>) {
  const o = await createOwnerWorkspace(prisma, { name: "Brightline" });
  await updateBrandKit(prisma, { workspaceId: o.workspaceId, actor, input: ZBrandKitUpdate.parse({ returnAddress }) });
  return brandForRender(prisma, o);
}
const US_SENDER = {
  addressLine1: "415 Mission St",
  city: "San Francisco",
  region: "CA",
  postalCode: "94105",
  country: "US",
};
const UK_SENDER = { addressLine1: "10 Finsbury Square", city: "London", postalCode: "EC2A 1AF", country: "GB" };

const toronto = {
  ...SAMPLE_CONTACT,
  addressLine1: "100 King St W",
  addressLine2: null,
  city: "Toronto",
  region: "ON",
  postalCode: "M5X 1A9",
  country: "CA",
};
const kyoto = {
  ...SAMPLE_CONTACT,
  firstName: "花子",
  lastName: "佐藤",
  title: "営業部長",
  addressLine1: "京都府京都市下京区東塩小路町721-1",
  addressLine2: null,
  city: "Kyoto",
  region: "Kyoto",
  postalCode: "600-8216",
  country: "JP",
  account: { name: "京都ワークス株式会社", domain: null },
};

async function proof(brand: Awaited<ReturnType<typeof brandFrom>>, contact: typeof SAMPLE_CONTACT) {
  const { input } = composePiece({
    title: "Proof",
    brand,
    design: standardDesign("postcard", false),
    contact,
    response: { url: "https://mail.example/r/Ab3dE9xYz1", label: "mail.example/r/Ab3dE9xYz1" },
    specimen: false,
  });
  return { input, pdf: await piecePdf(layoutPiece(input)) };
}

describe("the addresses on a proof", () => {
  it("a US sender's return address names the United States on a piece to Canada, and nothing on one to Boston", async () => {
    const brand = await brandFrom(US_SENDER);
    const abroad = await proof(brand, toronto);
    expect(abroad.input.returnAddress).toEqual([
      "415 Mission St",
      "San Francisco, CA 94105",
      "UNITED STATES OF AMERICA",
    ]);
    expect(abroad.input.recipient.addressLines.at(-1)).toBe("CANADA");
    const home = await proof(brand, SAMPLE_CONTACT);
    expect(home.input.returnAddress).toEqual(["415 Mission St", "San Francisco, CA 94105"]);
    if (hasPoppler) {
      expect(pdfText(abroad.pdf)).toContain("UNITED STATES OF AMERICA");
      expect(pdfText(home.pdf)).not.toContain("UNITED STATES");
    }
  });

  it("a UK sender's return address names the United Kingdom on a piece to the US", async () => {
    const brand = await brandFrom(UK_SENDER);
    const { input } = await proof(brand, SAMPLE_CONTACT);
    expect(input.returnAddress).toEqual(["10 Finsbury Square", "London", "EC2A 1AF", "UNITED KINGDOM"]);
  });

  it("a Kyoto address given half in English prints in Japanese order, in Japanese only, with the sender's country", async () => {
    const brand = await brandFrom(US_SENDER);
    const { input, pdf } = await proof(brand, kyoto);
    expect(input.recipient.addressLines).toEqual([
      "〒600-8216",
      "京都府京都市下京区東塩小路町721-1",
      "京都ワークス株式会社 営業部長",
      "佐藤 花子",
      "JAPAN",
    ]);
    expect(input.returnAddress.at(-1)).toBe("UNITED STATES OF AMERICA");
    if (!hasPoppler) return;
    const text = pdfText(pdf);
    for (const line of input.recipient.addressLines) expect(text).toContain(line);
    expect(text).not.toContain("Kyoto");
    // A look at the page itself: PROOF_PNG=path writes the address side rasterised.
    const png = pdfPagePng(pdf, 2, 100);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    if (process.env.PROOF_PNG) writeFileSync(process.env.PROOF_PNG, png);
  });
});
