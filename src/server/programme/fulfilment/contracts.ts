import type { Prisma } from "@/generated/prisma/client";
import { type Actor, recordAudit } from "@/server/ground/audit/service";
import type { Db } from "@/server/ground/db";
import { wakeEventsAfterMailingChange } from "@/server/ground/signals/entry-wake";
import { AppError } from "@/server/ground/errors";
import { formatPlural } from "@/server/ground/render/format-words";
import { countryPricesOf } from "./prices";
import { adapterFor } from "./registry";
import { isConnectableVendor } from "./vendors/connector";
import { vendorLabel } from "./vendors/connectors";
import type { TNewContract } from "./schema";
import { isSizeOf, sizeLabel, type TPrintFormat } from "./sizes";

const contractSelect = {
  id: true,
  name: true,
  vendor: true,
  connectionId: true,
  format: true,
  size: true,
  countries: true,
  unitCostCents: true,
  countryPrices: true,
  quote: true,
  status: true,
  approvedAt: true,
  revokedAt: true,
  createdAt: true,
  _count: { select: { campaigns: true } },
} satisfies Prisma.FulfilmentContractSelect;

type ContractRow = Prisma.FulfilmentContractGetPayload<{ select: typeof contractSelect }>;

/** `mode`: "test" when the contract prints through a test key (nothing is really printed), "live", or null (the sandbox). */
function view(c: ContractRow, modes: Map<string, string> = new Map()) {
  const { _count, countryPrices, ...rest } = c;
  const mode = c.connectionId ? ((modes.get(c.connectionId) ?? null) as "test" | "live" | null) : null;
  return {
    ...rest,
    countryPrices: (countryPrices ?? {}) as Record<string, number>,
    mode,
    sizeLabel: sizeLabel(c.format as TPrintFormat, c.size),
    campaigns: _count.campaigns,
  };
}

async function views(db: Db, rows: ContractRow[]) {
  const ids = [...new Set(rows.map((r) => r.connectionId).filter((x): x is string => !!x))];
  const modes = new Map(
    ids.length
      ? (await db.printVendorConnection.findMany({ where: { id: { in: ids } }, select: { id: true, mode: true } })).map(
          (c) => [c.id, c.mode],
        )
      : [],
  );
  return rows.map((r) => view(r, modes));
}

/** The workspace's print contracts, approved first, then proposed, then revoked. */
export async function listContracts(db: Db, p: { workspaceId: string; status?: "proposed" | "approved" | "revoked" }) {
  const rows = await db.fulfilmentContract.findMany({
    where: { workspaceId: p.workspaceId, ...(p.status ? { status: p.status } : {}) },
    orderBy: { createdAt: "asc" },
    select: contractSelect,
  });
  const rank = { approved: 0, proposed: 1, revoked: 2 } as const;
  return (await views(db, rows)).sort((a, b) => rank[a.status] - rank[b.status]);
}

/** The contracts one page at a time, oldest first (agents' contracts_list); an unknown cursor is not found. */
export async function pageContracts(
  db: Db,
  p: { workspaceId: string; status?: "proposed" | "approved" | "revoked"; cursor?: string; take: number },
) {
  if (
    p.cursor &&
    !(await db.fulfilmentContract.findFirst({
      where: { id: p.cursor, workspaceId: p.workspaceId },
      select: { id: true },
    }))
  ) {
    throw new AppError("not_found", "The cursor names no contract of this workspace.", {
      nextStep: "Call contracts_list again without a cursor to start from the first page.",
    });
  }
  const rows = await db.fulfilmentContract.findMany({
    where: { workspaceId: p.workspaceId, ...(p.status ? { status: p.status } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: p.take + 1,
    ...(p.cursor ? { cursor: { id: p.cursor }, skip: 1 } : {}),
    select: contractSelect,
  });
  const page = await views(db, rows.slice(0, p.take));
  return { contracts: page, nextCursor: rows.length > p.take ? page[page.length - 1].id : null };
}

export async function getContract(db: Db, p: { workspaceId: string; contractId: string }) {
  const row = await db.fulfilmentContract.findFirst({
    where: { id: p.contractId, workspaceId: p.workspaceId },
    select: contractSelect,
  });
  if (!row) throw new AppError("not_found", "No such fulfilment contract in this workspace.");
  return (await views(db, [row]))[0];
}

/** A price from the vendor for a product and countries, before a contract is made. */
export async function quoteContract(
  db: Db,
  p: Pick<TNewContract, "vendor" | "format" | "size" | "countries" | "unitCostCents">,
) {
  if (!isSizeOf(p.format, p.size))
    throw new AppError("validation_failed", `${p.size} is not a size of ${formatPlural(p.format)}.`, {
      errors: [{ pointer: "/size", detail: `Choose a size of ${formatPlural(p.format)}.` }],
    });
  return adapterFor(p.vendor, db).quote({
    format: p.format,
    size: p.size,
    countries: p.countries,
    ...(p.unitCostCents !== undefined ? { unitCostCents: p.unitCostCents } : {}),
  });
}

/** The vendor account a new contract prints through: the one named, else the workspace's connected one (connectable vendors only). */
async function contractConnection(db: Db, p: { workspaceId: string; vendor: string; connectionId?: string }) {
  if (!isConnectableVendor(p.vendor)) return null;
  const c = await db.printVendorConnection.findFirst({
    where: {
      workspaceId: p.workspaceId,
      vendor: p.vendor,
      status: "connected",
      ...(p.connectionId ? { id: p.connectionId } : {}),
    },
    orderBy: { connectedAt: "desc" },
  });
  const label = vendorLabel(p.vendor);
  if (!c)
    throw new AppError(
      "invalid_state",
      `Connect your ${label} account first (Settings → Printing): a ${label} contract prints through it.`,
      { errors: [{ pointer: "/connectionId", detail: `No connected ${label} account.` }] },
    );
  return c;
}

/**
 * Proposes a contract at the vendor's quoted price. It prints nothing until the owner approves it
 * (approveContract): that is the "approved fulfilment contract" the lifecycle checks.
 */
export async function createContract(db: Db, p: { workspaceId: string; input: TNewContract; actor: Actor }) {
  const countries = [...new Set(p.input.countries)];
  const connection = await contractConnection(db, {
    workspaceId: p.workspaceId,
    vendor: p.input.vendor,
    connectionId: p.input.connectionId,
  });
  const quote = await quoteContract(db, { ...p.input, countries });
  const created = await db.fulfilmentContract.create({
    data: {
      workspaceId: p.workspaceId,
      name: p.input.name,
      vendor: p.input.vendor,
      connectionId: connection?.id ?? null,
      format: p.input.format,
      size: p.input.size,
      countries,
      unitCostCents: quote.unitCostCents,
      countryPrices: countryPricesOf(quote),
      quote,
      status: "proposed",
    },
  });
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "contract.proposed",
    { type: "fulfilment_contract", id: created.id },
    {
      vendor: created.vendor,
      mode: connection?.mode ?? null,
      format: created.format,
      size: created.size,
      unitCostCents: created.unitCostCents,
    },
  );
  return getContract(db, { workspaceId: p.workspaceId, contractId: created.id });
}

/** The owner approves a proposed contract: from now on campaigns on it can print (on the paid plan). */
export async function approveContract(
  db: Db,
  p: { workspaceId: string; contractId: string; actor: Actor & { kind: "user" }; now?: Date },
) {
  const now = p.now ?? new Date();
  const moved = await db.fulfilmentContract.updateMany({
    where: { id: p.contractId, workspaceId: p.workspaceId, status: "proposed" },
    data: { status: "approved", approvedAt: now, approvedByUserId: p.actor.id },
  });
  const contract = await getContract(db, p);
  if (moved.count !== 1)
    throw new AppError(
      "invalid_state",
      `The contract is ${contract.status}; only a proposed contract can be approved.`,
    );
  await recordAudit(
    db,
    p.workspaceId,
    p.actor,
    "contract.approved",
    { type: "fulfilment_contract", id: contract.id },
    { unitCostCents: contract.unitCostCents },
  );
  return contract;
}

/**
 * Revokes a contract: nothing more is printed through it. Pieces the vendor already has are
 * mailed; every other piece of its campaigns is skipped (no_fulfilment_contract) at its next step.
 */
export async function revokeContract(db: Db, p: { workspaceId: string; contractId: string; actor: Actor; now?: Date }) {
  const now = p.now ?? new Date();
  const moved = await db.fulfilmentContract.updateMany({
    where: { id: p.contractId, workspaceId: p.workspaceId, status: { in: ["proposed", "approved"] } },
    data: { status: "revoked", revokedAt: now, revokedByUserId: p.actor.kind === "user" ? p.actor.id : null },
  });
  const contract = await getContract(db, p);
  if (moved.count !== 1) throw new AppError("invalid_state", "The contract is already revoked.");
  await wakeEventsAfterMailingChange(db, { workspaceId: p.workspaceId, contractId: contract.id, now });
  await recordAudit(db, p.workspaceId, p.actor, "contract.revoked", { type: "fulfilment_contract", id: contract.id });
  return contract;
}
