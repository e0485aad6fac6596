import { REVIEW_WINDOW_MS } from "@/server/programme/entry/lifecycle/piece-preparation";
import { REQUEST_CARD_TTL_HOURS } from "./requests";
import { AUDIENCE_DRIFT_LIMIT } from "./go-live-checks";

/** The one rule of card expiry, in the words the policy, lifecycle.md, the cards and the tools all use. */
export const CARD_EXPIRY_RULE = `A card an agent asks for (go live, raise a budget, resume, change the plan) expires after ${REQUEST_CARD_TTL_HOURS} hours; a piece's review card after ${REVIEW_WINDOW_MS / 86_400_000} days. A card also expires when the draft it describes is edited, when its agent withdraws it, and, for go-live, when on acceptance the audience has changed by more than ${AUDIENCE_DRIFT_LIMIT * 100}% or the budget no longer covers it.`;
