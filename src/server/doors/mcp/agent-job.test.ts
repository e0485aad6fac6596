import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/generated/prisma/client";
import { decideCard } from "@/server/programme/confirmations/service";
import { verifyProofLink } from "@/server/programme/designs/proof-links";
import { testDatabase } from "@/test/database";
import { createOwnerWorkspace } from "@/test/factories";
import { agentFor, refusedResult, toolErrorOf, toolResult } from "@/test/mcp";

let prisma: PrismaClient;
beforeAll(async () => {
  prisma = (await testDatabase()).prisma;
});

const csvOf = (from: number, to: number, domain: string) =>
  [
    "First Name,Last Name,Email,Website,Address,City,State,Zip,Country",
    ...Array.from(
      { length: to - from },
      (_, i) =>
        `Ada${from + i},Lovelace,ada${from + i}@${domain},${domain},${10 + from + i} Main St,Boston,MA,02116,US`,
    ),
  ].join("\n");

describe("an agent does the whole job with the SDK client", () => {
  it("imports, drafts, sees card warnings, has a card expired by a grown audience, goes live, posts a batch, reads events and pieces read-only, imports outcomes, edits and removes contacts", async () => {
    const o = await createOwnerWorkspace(prisma);
    const domain = `job-${o.workspaceId.slice(-8)}.example`;
    const agent = await agentFor(prisma, o.workspaceId);
    const imported = toolResult<{ audienceId: string; status: string }>(
      await agent.callTool({ name: "contacts_import", arguments: { csv: csvOf(0, 3, domain), audienceName: "Job" } }),
    );
    expect(imported.status).toBe("succeeded");
    const audienceId = imported.audienceId;
    const contract = await prisma.fulfilmentContract.create({
      data: {
        workspaceId: o.workspaceId,
        name: "Sandbox 6x9",
        format: "postcard",
        size: "6x9",
        unitCostCents: 104,
        status: "approved",
        approvedAt: new Date(),
      },
    });
    const draft = toolResult<{ id: string }>(
      await agent.callTool({
        name: "campaigns_create_draft",
        arguments: {
          name: "Job",
          format: "postcard",
          audienceId,
          acceptsApiEvents: true,
          holdoutShare: 0,
          fulfilmentContractId: contract.id,
          budgetCents: 200,
          destinationUrl: "https://a.example/x",
          headline: "Hi {{firstName}}",
          bodyTemplate: "Hello",
        },
      }),
    );

    // The card says what will really happen, and the audience it was made for.
    const first = toolResult<{ cardId: string; warnings: string[]; audienceContacts: number }>(
      await agent.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: draft.id } }),
    );
    expect(first.audienceContacts).toBe(3);
    expect(first.warnings.join(" ")).toContain("below the audience's estimated cost of 3.12 USD");
    // The agent then grows the audience by far more than a tenth: accepting expires the card with a sentence, and nothing runs.
    await agent.callTool({ name: "contacts_import", arguments: { csv: csvOf(3, 13, domain), audienceId } });
    const expired = await decideCard(prisma, {
      workspaceId: o.workspaceId,
      cardId: first.cardId,
      decision: "accept",
      user: o.user,
    });
    expect(expired.status).toBe("expired");
    expect(expired.executionError).toContain("made for an audience of 3 contacts; it now has 13");
    expect((await prisma.campaign.findUniqueOrThrow({ where: { id: draft.id } })).status).toBe("draft");
    const seen = toolResult<{ status: string; executionError: string }>(
      await agent.callTool({ name: "confirmations_get", arguments: { cardId: first.cardId } }),
    );
    expect(seen).toMatchObject({
      status: "expired",
      executionError: expect.stringContaining("no longer says what going live would do"),
    });

    // A card the agent asked for by mistake can be withdrawn; a new one, accepted, takes it live.
    await agent.callTool({
      name: "campaigns_update_draft",
      arguments: { campaignId: draft.id, changes: { budgetCents: 5000 } },
    });
    const mistaken = toolResult<{ cardId: string }>(
      await agent.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: draft.id } }),
    );
    const withdrawn = await agent.callTool({ name: "confirmations_withdraw", arguments: { cardId: mistaken.cardId } });
    expect(toolResult(withdrawn)).toMatchObject({
      status: "expired",
      executionError: expect.stringContaining("Withdrawn"),
    });
    expect((withdrawn.structuredContent as { awaitingConfirmation: unknown[] }).awaitingConfirmation).toEqual([]);
    const card = toolResult<{ cardId: string; warnings: string[] }>(
      await agent.callTool({ name: "campaigns_request_go_live", arguments: { campaignId: draft.id } }),
    );
    expect(card.warnings.join(" ")).not.toContain("below the audience");
    expect(
      (await decideCard(prisma, { workspaceId: o.workspaceId, cardId: card.cardId, decision: "accept", user: o.user }))
        .status,
    ).toBe("accepted");

    // A batch of entry events: each its own answer.
    const contacts = await prisma.contact.findMany({
      where: { workspaceId: o.workspaceId },
      orderBy: { email: "asc" },
    });
    const batch = refusedResult<{
      accepted: number;
      refused: number;
      results: { eventId: string | null; error: { code: string; message: string } | null }[];
    }>(
      await agent.callTool({
        name: "entry_events_post_batch",
        arguments: {
          campaignId: draft.id,
          events: [
            { contactId: contacts[0].id, idempotencyKey: "k0" },
            { contactId: contacts[1].id, idempotencyKey: "k1" },
            { contactId: "ctc_nobody", idempotencyKey: "k2" },
            {
              contactId: contacts[2].id,
              idempotencyKey: "k3",
              occurredAt: new Date(Date.now() + 86_400_000).toISOString(),
            },
          ],
        },
      }),
    );
    expect(batch).toMatchObject({ accepted: 2, refused: 2 });
    expect(batch.results[2].error?.code).toBe("not_found");
    // A future occurredAt refuses that event alone.
    expect(batch.results[3].error).toEqual({
      code: "invalid_argument",
      message: expect.stringContaining("occurredAt must not be in the future"),
    });
    expect(await prisma.entryEvent.count({ where: { campaignId: draft.id, contactId: contacts[2].id } })).toBe(0);

    // A read-only grant reads an event and a piece, with a proof link it can open.
    const piece = await prisma.mailPiece.create({
      data: {
        workspaceId: o.workspaceId,
        campaignId: draft.id,
        contactId: contacts[0].id,
        sid: `s${Date.now()}`.padEnd(16, "0").slice(0, 16),
        responseCode: `rc${Date.now()}`,
        status: "printed",
        costCents: 104,
        recipient: { name: "Ada0 Lovelace", lines: ["10 Main St", "Boston MA 02116"] },
        proofPdf: new Uint8Array([37, 80, 68, 70]),
        vendorRef: "ltr_123",
        printedAt: new Date(),
      },
    });
    const reader = await agentFor(prisma, o.workspaceId, ["workspace:read"]);
    const event = toolResult<{ contactId: string }>(
      await reader.callTool({
        name: "entry_events_get",
        arguments: { campaignId: draft.id, eventId: batch.results[0].eventId! },
      }),
    );
    expect(event.contactId).toBe(contacts[0].id);
    const read = toolResult<{
      status: string;
      vendorRef: string;
      costCents: number;
      proofUrl: string;
      addressLines: string[];
    }>(await reader.callTool({ name: "pieces_get", arguments: { pieceId: piece.id } }));
    expect(read).toMatchObject({
      status: "printed",
      vendorRef: "ltr_123",
      costCents: 104,
      addressLines: ["10 Main St", "Boston MA 02116"],
    });
    const link = new URL(read.proofUrl);
    expect(
      await verifyProofLink(
        prisma,
        { kind: "piece", id: piece.id, workspaceId: o.workspaceId },
        link.searchParams.get("expires"),
        link.searchParams.get("signature"),
      ),
    ).toBe(true);
    expect(Number(link.searchParams.get("expires")) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    const byContact = toolResult<{ pieces: { pieceId: string }[] }>(
      await reader.callTool({ name: "pieces_list", arguments: { contactId: contacts[0].id } }),
    );
    expect(byContact.pieces.map((p) => p.pieceId)).toEqual([piece.id]);

    // Outcomes, as the Results page imports them: a bad row writes nothing; the good file records.
    const bad = refusedResult<{ created: number; errors: { row: number }[] }>(
      await agent.callTool({
        name: "outcomes_import",
        arguments: {
          csv: `account,kind,at\n${domain},opportunity_created,2026-10-01\nnowhere.example,signup,2026-10-02\n`,
        },
      }),
    );
    expect(bad).toMatchObject({ created: 0, errors: [{ row: 2 }] });
    const good = toolResult<{ created: number }>(
      await agent.callTool({
        name: "outcomes_import",
        arguments: { csv: `account,kind,at\n${domain},opportunity_created,2026-10-01\n` },
      }),
    );
    expect(good.created).toBe(1);
    expect(
      toolErrorOf(await agent.callTool({ name: "outcomes_import", arguments: { csv: "company,when\nx,y\n" } })),
    ).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("missing: account, kind, at") });

    // Contacts: an address edit judges the contact again; a contact whose piece is at the printer stays (for now); one without goes.
    const edited = await agent.callTool({
      name: "contacts_update",
      arguments: { contactId: contacts[5].id, fields: { addressLine1: "1 Elm St", city: "Cambridge" } },
    });
    expect(toolResult(edited)).toMatchObject({
      addressLine1: "1 Elm St",
      city: "Cambridge",
      addressStatus: "unverified",
      mailability: expect.objectContaining({ status: expect.any(String) }),
    });
    expect((edited.structuredContent as { changed: string[] }).changed[0]).toContain("judged again");
    expect(
      toolErrorOf(await agent.callTool({ name: "contacts_delete", arguments: { contactId: contacts[0].id } })),
    ).toMatchObject({ code: "invalid_state", message: expect.stringContaining(`${piece.id} (`) });
    expect(
      toolResult(await agent.callTool({ name: "contacts_delete", arguments: { contactId: contacts[6].id } })),
    ).toMatchObject({ deleted: true, audienceMemberships: 1 });
    expect(await prisma.contact.count({ where: { id: contacts[6].id } })).toBe(0);

    // Pausing twice: the second is a no-op answer.
    await agent.callTool({ name: "campaigns_pause", arguments: { campaignId: draft.id } });
    const again = await agent.callTool({ name: "campaigns_pause", arguments: { campaignId: draft.id } });
    expect(again.isError).toBeFalsy();
    expect((again.structuredContent as { changed: string[] }).changed).toEqual([]);
  }, 240_000);
});
