import { describe, expect, it } from "vitest";
import { returnAddressLines } from "./address-block";

const sanFrancisco = {
  addressLine1: "415 Mission St",
  addressLine2: "Floor 4",
  city: "San Francisco",
  region: "CA",
  postalCode: "94105",
  country: "US",
};
const london = {
  addressLine1: "10 Finsbury Square",
  addressLine2: null,
  city: "London",
  region: null,
  postalCode: "EC2A 1AF",
  country: "GB",
};

describe("the return address names its country when the piece goes to another", () => {
  it("a US sender: no country to a US recipient, UNITED STATES OF AMERICA to a Canadian one", () => {
    expect(returnAddressLines(sanFrancisco, "US")).toEqual(["415 Mission St", "Floor 4", "San Francisco, CA 94105"]);
    expect(returnAddressLines(sanFrancisco, null)).toEqual(["415 Mission St", "Floor 4", "San Francisco, CA 94105"]);
    expect(returnAddressLines(sanFrancisco, "CA")).toEqual([
      "415 Mission St",
      "Floor 4",
      "San Francisco, CA 94105",
      "UNITED STATES OF AMERICA",
    ]);
    // A country written out is read as its code.
    expect(returnAddressLines(sanFrancisco, "Canada").at(-1)).toBe("UNITED STATES OF AMERICA");
  });

  it("a UK sender: in the UK's order, with its country to a US recipient and none to a UK one", () => {
    expect(returnAddressLines(london, "US")).toEqual(["10 Finsbury Square", "London", "EC2A 1AF", "UNITED KINGDOM"]);
    expect(returnAddressLines(london, "GB")).toEqual(["10 Finsbury Square", "London", "EC2A 1AF"]);
    expect(returnAddressLines(null, "US")).toEqual([]);
  });
});
