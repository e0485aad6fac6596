import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeLob, startFakeLob } from "@/test/fake-lob";
import { LobVerifier } from "./lob";
import { addressVerifier } from "./registry";
import { verifyAddresses } from "./run";
import { SandboxVerifier } from "./sandbox";
import { VerifierError } from "./types";

let lob: FakeLob;
let verifier: LobVerifier;
beforeAll(async () => {
  lob = await startFakeLob();
  verifier = new LobVerifier({
    apiKey: lob.apiKey,
    baseUrl: lob.url,
    usCents: 5,
    intlCents: 25,
    defaultRetryAfterMs: 10,
  });
});
afterAll(() => lob.close());

const us = {
  addressLine1: "185 Berry St",
  addressLine2: "Ste 6100",
  city: "San Francisco",
  region: "CA",
  postalCode: "94107",
  country: "US",
};
const de = {
  addressLine1: "Friedrichstraße 68",
  addressLine2: null,
  city: "Berlin",
  region: null,
  postalCode: "10117",
  country: "DE",
};

describe("the Lob verifier against a local fake of Lob's API", () => {
  it("verifies a US address with the US verification, sending Lob's field names, and keeps the standardised address", async () => {
    const v = await verifier.verify(us);
    expect(v).toEqual({
      verdict: "deliverable",
      vendorVerdict: "deliverable",
      standardised: {
        addressLine1: "185 BERRY ST",
        addressLine2: "STE 6100",
        city: "SAN FRANCISCO",
        region: "CA",
        postalCode: "94107-1234",
        country: "US",
      },
    });
    expect(lob.requests.at(-1)).toEqual({
      path: "/v1/us_verifications",
      body: {
        primary_line: "185 Berry St",
        secondary_line: "Ste 6100",
        city: "San Francisco",
        state: "CA",
        zip_code: "94107",
      },
    });
  });

  it("maps each of Lob's US deliverabilities to the four verdicts", async () => {
    const verdictFor = async (line2: string) => (await verifier.verify({ ...us, addressLine2: line2 })).verdict;
    expect(await verdictFor("missing unit")).toBe("deliverable_missing_unit");
    expect(await verdictFor("incorrect unit")).toBe("deliverable_missing_unit");
    expect(await verdictFor("unnecessary unit")).toBe("deliverable_unnecessary_unit");
    expect(await verdictFor("undeliverable")).toBe("undeliverable");
  });

  it("verifies other countries with the international verification", async () => {
    expect((await verifier.verify(de)).verdict).toBe("deliverable");
    expect(lob.requests.at(-1)).toEqual({
      path: "/v1/intl_verifications",
      body: { primary_line: "Friedrichstraße 68", city: "Berlin", postal_code: "10117", country: "DE" },
    });
    expect((await verifier.verify({ ...de, addressLine2: "missing info" })).verdict).toBe("deliverable_missing_unit");
    expect(await verifier.verify({ ...de, addressLine1: "No Match 1" })).toMatchObject({
      verdict: "undeliverable",
      vendorVerdict: "no_match",
    });
    expect(verifier.costCents("US")).toBe(5);
    expect(verifier.costCents("DE")).toBe(25);
  });

  it("turns Lob's documented errors into clear sentences: a refused key is fatal, a refused address permanent", async () => {
    const wrong = new LobVerifier({ apiKey: "test_wrong", baseUrl: lob.url, usCents: 5, intlCents: 25 });
    const keyError = await wrong.verify(us).catch((e: VerifierError) => e);
    expect(keyError).toBeInstanceOf(VerifierError);
    expect((keyError as VerifierError).detail).toMatchObject({ status: 401, code: "unauthorized", fatal: true });
    const missing = await verifier.verify({ ...us, addressLine1: null }).catch((e: VerifierError) => e);
    expect((missing as VerifierError).message).toBe("Lob could not verify this address: primary_line is required.");
    expect((missing as VerifierError).detail).toMatchObject({ status: 422, code: "invalid", permanent: true });
    lob.failNext(1);
    expect(((await verifier.verify(us).catch((e) => e)) as VerifierError).detail).toMatchObject({
      status: 500,
      code: "internal_server_error",
    });
  });

  it("waits when Lob answers 429 (as long as its Retry-After says) and tries again", async () => {
    const waits: number[] = [];
    lob.throttleNext(2, 3);
    const before = lob.requests.length;
    const out = await verifyAddresses(
      verifier,
      [
        { key: "a", address: us },
        { key: "b", address: { ...de, addressLine1: "undeliverable 1" } },
        { key: "c", address: { ...us, addressLine1: null } },
      ],
      { concurrency: 1, wait: async (ms) => void waits.push(ms) },
    );
    expect(waits).toEqual([3000, 3000]);
    expect(lob.requests.length - before).toBe(5);
    expect(out.results.get("a")?.verdict).toBe("deliverable");
    expect(out.results.get("b")?.verdict).toBe("undeliverable");
    expect(out.refused.get("c")).toContain("primary_line is required");
    // Without a Retry-After, the documented 5-second window (here configured to 10 ms).
    lob.throttleNext(1);
    const again = await verifyAddresses(verifier, [{ key: "a", address: us }], {
      wait: async (ms) => void waits.push(ms),
    });
    expect(waits.at(-1)).toBe(10);
    expect(again.results.size).toBe(1);
  });

  it("gives up after repeated 429s so the job can resume later", async () => {
    lob.throttleNext(10);
    await expect(
      verifyAddresses(verifier, [{ key: "a", address: us }], { wait: async () => undefined }),
    ).rejects.toThrow("Lob asked us to slow down (429).");
    lob.throttleNext(0);
  });

  it("the sandbox is the default, Lob only with an API key", () => {
    expect(addressVerifier({})).toBeInstanceOf(SandboxVerifier);
    const configured = addressVerifier({ LOB_API_KEY: "test_x", LOB_US_VERIFICATION_CENTS: "7" });
    expect(configured).toBeInstanceOf(LobVerifier);
    expect(configured.costCents("US")).toBe(7);
    expect(configured.costCents("FR")).toBe(25);
  });
});
