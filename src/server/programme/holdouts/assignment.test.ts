import { describe, expect, it } from "vitest";
import { chooseHoldoutAccounts } from "./assignment";

const ids = Array.from({ length: 100 }, (_, i) => `acc_${i}`);

describe("chooseHoldoutAccounts", () => {
  it("holds out exactly round(share x accounts)", () => {
    expect(chooseHoldoutAccounts(ids, 0.2, "cmp_a").size).toBe(20);
    expect(chooseHoldoutAccounts(ids.slice(0, 12), 0.2, "cmp_a").size).toBe(2);
    expect(chooseHoldoutAccounts(ids, 0, "cmp_a").size).toBe(0);
  });

  it("is the same whatever the order or repetition of the input", () => {
    const a = chooseHoldoutAccounts(ids, 0.3, "cmp_x");
    const b = chooseHoldoutAccounts([...ids].reverse().concat(ids.slice(0, 10)), 0.3, "cmp_x");
    expect([...b].sort()).toEqual([...a].sort());
  });

  it("differs between campaigns", () => {
    const a = chooseHoldoutAccounts(ids, 0.5, "cmp_1");
    const b = chooseHoldoutAccounts(ids, 0.5, "cmp_2");
    expect([...a].filter((id) => b.has(id)).length).toBeLessThan(50);
  });
});
