/**
 * Outcomes count within this many days of an account's first mailed piece (its entry, when held
 * out); a campaign keeps measuring, and its holdout keeps holding across campaigns, this long after it ends.
 */
export const ATTRIBUTION_WINDOW_DAYS = 90;
