import type { CrmDeal } from "./adapter";
import type { TDealFilter } from "./schema";

/**
 * Which CRM deals count as outcomes, and in which currency. The owner chooses the pipelines and
 * stages that count (stored on the connection as its dealFilter; null: all). Amounts here are US
 * dollars (pipeline_dollars, closed_won): a deal whose amount is in another currency is counted
 * without its amount, never converted at a guessed rate and never mixed in.
 */
export const OUTCOME_CURRENCY = "USD";

/** A stored filter, read leniently (a missing or malformed one counts every deal). */
export function dealFilterOf(value: unknown): TDealFilter {
  const v = (value ?? {}) as { pipelines?: unknown; stages?: unknown };
  const list = (x: unknown) =>
    Array.isArray(x) && x.length && x.every((i) => typeof i === "string") ? (x as string[]) : null;
  return { pipelines: list(v.pipelines), stages: list(v.stages) };
}

/** Whether the deal is in a pipeline and a stage that count. */
export function dealCounts(filter: TDealFilter, deal: Pick<CrmDeal, "pipeline" | "stage">): boolean {
  if (filter.pipelines && !(deal.pipeline && filter.pipelines.includes(deal.pipeline))) return false;
  if (filter.stages && !(deal.stage && filter.stages.includes(deal.stage))) return false;
  return true;
}

/**
 * The deal as it counts: its amount dropped (with the reason) when it is in a currency other than
 * US dollars. The deal's own currency wins; else the CRM account's; a CRM that says neither is
 * taken as dollars, as before currencies were read.
 */
export function inOutcomeCurrency(
  deal: CrmDeal,
  accountCurrency: string | null,
): { deal: CrmDeal; refused: string | null } {
  const currency = deal.currency ?? accountCurrency;
  if (!currency || currency === OUTCOME_CURRENCY || deal.amountCents === null) return { deal, refused: null };
  return { deal: { ...deal, amountCents: null }, refused: currency };
}
