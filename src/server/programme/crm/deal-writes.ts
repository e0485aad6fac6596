import type { Db } from "@/server/ground/db";
import type { CrmDeal } from "./adapter";
import { dealCounts, type dealFilterOf, inOutcomeCurrency } from "./deal-rules";
import { applyDeleted } from "./deletions";
import { type PageContext, writeDeals } from "./sync-writes";

/**
 * Deals as they count: those outside the pipelines and stages the owner chose lose their outcomes
 * (counted as excluded); those in a currency other than dollars count without their amount, with
 * a warning. The rest are written by writeDeals.
 */
export function countedDealsWriter(
  filter: ReturnType<typeof dealFilterOf>,
  currency: Parameters<typeof inOutcomeCurrency>[1],
) {
  return async (tx: Db, c: PageContext, records: CrmDeal[]) => {
    const counted: CrmDeal[] = [];
    const excluded: string[] = [];
    for (const r of records) {
      if (!dealCounts(filter, r)) {
        excluded.push(r.id);
        continue;
      }
      const { deal, refused } = inOutcomeCurrency(r, currency);
      if (refused) {
        c.issues.push({
          objectType: "deal",
          objectId: r.id,
          severity: "warning",
          message: `deal ${r.id}: its amount is in ${refused}, and amounts here are in US dollars; counted without its amount`,
        });
        c.counts.issues.warnings++;
      }
      counted.push(deal);
    }
    if (excluded.length) {
      c.counts.deals.excluded += excluded.length;
      // Outcomes these deals recorded before they left the chosen pipelines or stages (or before the choice).
      await applyDeleted(tx, { workspaceId: c.workspaceId, connectionId: c.connectionId }, "deals", excluded);
    }
    await writeDeals(tx, c, counted);
  };
}
