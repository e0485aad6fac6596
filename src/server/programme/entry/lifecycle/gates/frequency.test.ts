import { describe, expect, it } from "vitest";
import { firstAllowedDate, fitsCap } from "./frequency";

const DAY = 86_400_000;
const now = new Date("2026-11-22T00:00:00Z");
const daysFromNow = (d: number) => new Date(now.getTime() + d * DAY);
const base = { now, windowDays: 30, capContact: 1, capAccount: null, contactSends: [], accountSends: [] };

describe("firstAllowedDate", () => {
  it("is now when nothing stands in the way", () => {
    expect(firstAllowedDate(base)).toEqual(now);
    expect(firstAllowedDate({ ...base, capContact: null, contactSends: [daysFromNow(-1)] })).toEqual(now);
  });

  it("waits until a recent piece leaves the window (cap 1)", () => {
    expect(firstAllowedDate({ ...base, contactSends: [daysFromNow(-10)] })).toEqual(daysFromNow(20));
  });

  it("allows a second piece under a cap of 2, a third waits for the oldest to leave", () => {
    expect(firstAllowedDate({ ...base, capContact: 2, contactSends: [daysFromNow(-10)] })).toEqual(now);
    expect(firstAllowedDate({ ...base, capContact: 2, contactSends: [daysFromNow(-10), daysFromNow(-5)] })).toEqual(
      daysFromNow(20),
    );
  });

  it("respects pieces already planned for the future", () => {
    // A piece planned in 10 days blocks until 40 days from now under cap 1.
    expect(firstAllowedDate({ ...base, contactSends: [daysFromNow(10)] })).toEqual(daysFromNow(40));
  });

  it("applies the account cap to pieces for other people at the account", () => {
    const r = firstAllowedDate({
      ...base,
      capContact: null,
      capAccount: 2,
      accountSends: [daysFromNow(-20), daysFromNow(-3)],
    });
    expect(r).toEqual(daysFromNow(10));
  });

  it("satisfies both caps at once", () => {
    const r = firstAllowedDate({
      ...base,
      capContact: 1,
      capAccount: 1,
      contactSends: [daysFromNow(-25)],
      accountSends: [daysFromNow(-25), daysFromNow(-2)],
    });
    expect(r).toEqual(daysFromNow(28));
  });
});

describe("fitsCap", () => {
  it("checks every window that contains the new send", () => {
    const w = 30 * DAY;
    const t = 100 * DAY;
    expect(fitsCap([t - 29 * DAY], 1, w, t)).toBe(false);
    expect(fitsCap([t - 30 * DAY], 1, w, t)).toBe(true);
    expect(fitsCap([t + 29 * DAY], 1, w, t)).toBe(false);
    // 20 days either side: no 30-day window holds all three, so a cap of 2 is kept.
    expect(fitsCap([t - 20 * DAY, t + 20 * DAY], 2, w, t)).toBe(true);
    // 10 days either side: [t - 10 d, t + 20 d) holds all three.
    expect(fitsCap([t - 10 * DAY, t + 10 * DAY], 2, w, t)).toBe(false);
    expect(fitsCap([t - 10 * DAY, t + 10 * DAY], 3, w, t)).toBe(true);
  });
});
