import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { ZNewContract } from "./schema";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { drain, eventRow, liveCampaign, postEvent, testClock } from "@/test/lifecycle-fixtures";
import { approveContract, createContract, listContracts, quoteContract, revokeContract } from "./contracts";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const person = (o: { user: { id: string; email: string } }) => ({
  kind: "user" as const,
  id: o.user.id,
  label: o.user.email,
});

describe("printer contracts", () => {
  it("the sandbox quotes printing and postage per country; the contract reserves the highest", async () => {
    const quote = await quoteContract(prisma, {
      vendor: "sandbox",
      format: "postcard",
      size: "6x9",
      countries: ["US", "DE"],
    });
    expect(quote.perCountry).toEqual([
      { country: "US", printCents: 48, postageCents: 56, unitCostCents: 104 },
      { country: "DE", printCents: 48, postageCents: 170, unitCostCents: 218 },
    ]);
    expect(quote.unitCostCents).toBe(218);
    await expect(
      quoteContract(prisma, { vendor: "sandbox", format: "postcard", size: "a4", countries: ["US"] }),
    ).rejects.toMatchObject({ code: "validation_failed", message: "a4 is not a size of postcards." });
    await expect(
      quoteContract(prisma, { vendor: "sandbox", format: "letter", size: "us_letter", countries: ["KP"] }),
    ).rejects.toMatchObject({ message: "The sandbox printer does not mail to KP." });
    await expect(
      quoteContract(prisma, { vendor: "acme-print", format: "letter", size: "us_letter", countries: ["US"] }),
    ).rejects.toMatchObject({ message: "There is no print vendor called “acme-print”." });
  });

  it("refuses bad input with the field's reason", () => {
    const bad = ZNewContract.safeParse({
      name: " ",
      vendor: "sandbox",
      format: "postcard",
      size: "6x9",
      countries: ["usa"],
    });
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      "Give the contract a name.",
      "Countries are ISO 3166-1 alpha-2 codes such as US or DE.",
    ]);
    expect(
      ZNewContract.safeParse({ name: "x", vendor: "sandbox", format: "postcard", size: "6x9", countries: [] }).error!
        .issues[0].message,
    ).toBe("Choose at least one country.");
  });

  it("is proposed at the quote, approved once by the owner, and revoked; every step is in the audit log", async () => {
    const o = await createOwnerWorkspace(prisma);
    const c = await createContract(prisma, {
      workspaceId: o.workspaceId,
      input: { name: "Postcards", vendor: "sandbox", format: "postcard", size: "4x6", countries: ["US", "US", "CA"] },
      actor: person(o),
    });
    expect(c).toMatchObject({
      status: "proposed",
      unitCostCents: 205,
      countries: ["US", "CA"],
      sizeLabel: "4 × 6 in postcard",
      campaigns: 0,
    });
    expect(
      await approveContract(prisma, { workspaceId: o.workspaceId, contractId: c.id, actor: person(o) }),
    ).toMatchObject({ status: "approved" });
    await expect(
      approveContract(prisma, { workspaceId: o.workspaceId, contractId: c.id, actor: person(o) }),
    ).rejects.toMatchObject({
      code: "invalid_state",
      message: "The contract is approved; only a proposed contract can be approved.",
    });
    expect(
      await revokeContract(prisma, { workspaceId: o.workspaceId, contractId: c.id, actor: person(o) }),
    ).toMatchObject({ status: "revoked" });
    await expect(
      revokeContract(prisma, { workspaceId: o.workspaceId, contractId: c.id, actor: person(o) }),
    ).rejects.toMatchObject({ code: "invalid_state" });
    const actions = (
      await prisma.auditLogEntry.findMany({
        where: { workspaceId: o.workspaceId, targetId: c.id },
        orderBy: { createdAt: "asc" },
      })
    ).map((l) => l.action);
    expect(actions).toEqual(["contract.proposed", "contract.approved", "contract.revoked"]);
  });

  it("another workspace's contract is not found and stays as it was", async () => {
    const mine = await createOwnerWorkspace(prisma);
    const theirs = await createOwnerWorkspace(prisma);
    const c = await createContract(prisma, {
      workspaceId: theirs.workspaceId,
      input: { name: "Theirs", vendor: "sandbox", format: "letter", size: "a4", countries: ["GB"] },
      actor: person(theirs),
    });
    await expect(
      approveContract(prisma, { workspaceId: mine.workspaceId, contractId: c.id, actor: person(mine) }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      revokeContract(prisma, { workspaceId: mine.workspaceId, contractId: c.id, actor: person(mine) }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await listContracts(prisma, { workspaceId: mine.workspaceId })).toEqual([]);
    expect((await prisma.fulfilmentContract.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("proposed");
  });

  it("revoking a live campaign's contract skips the pieces the printer does not have yet", async () => {
    const f = await liveCampaign(prisma, { accounts: 1, perAccount: 1, campaign: { reviewGate: "each_piece" } });
    const clock = testClock();
    const e = await postEvent(prisma, f, f.contacts[0].id);
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, e.eventId)).toMatchObject({ status: "waiting" });
    await revokeContract(prisma, {
      workspaceId: f.workspaceId,
      contractId: f.contract!.id,
      actor: person(f),
      now: clock.now(),
    });
    await drain(prisma, clock, f.workspaceId);
    expect(await eventRow(prisma, e.eventId)).toMatchObject({
      status: "skipped",
      skipReason: "no_fulfilment_contract",
      enrollment: { status: "cancelled", mailPiece: { status: "cancelled" }, reservation: null },
    });
    expect(
      (await prisma.confirmationCard.findFirstOrThrow({ where: { workspaceId: f.workspaceId, kind: "approve_piece" } }))
        .status,
    ).toBe("expired");
  });
});
