import type { IntlVerificationsApi, UsVerificationsApi } from "@lob/lob-typescript-sdk";
import type { AddressFields } from "@/server/records/addresses/normalise";
import { type AddressVerifier, type TVerification, type TVerificationVerdict, VerifierError } from "./types";

/** Countries Lob verifies with its US verification (the US and its territories); the rest go to its international one. */
const US_COUNTRIES = new Set(["US", "PR", "GU", "VI", "AS", "MP", "UM"]);

/** Lob's US deliverability values, as the four verdicts the service knows. */
const US_VERDICTS: Record<string, TVerificationVerdict> = {
  deliverable: "deliverable",
  deliverable_unnecessary_unit: "deliverable_unnecessary_unit",
  // The unit given may not exist: as for a missing one, a person must supply the right unit.
  deliverable_incorrect_unit: "deliverable_missing_unit",
  deliverable_missing_unit: "deliverable_missing_unit",
  undeliverable: "undeliverable",
};

/** Lob's international deliverability values. */
const INTL_VERDICTS: Record<string, TVerificationVerdict> = {
  deliverable: "deliverable",
  // "The address is missing some information, but is most likely deliverable": usually the unit.
  deliverable_missing_info: "deliverable_missing_unit",
  undeliverable: "undeliverable",
  no_match: "undeliverable",
};

export interface LobOptions {
  apiKey: string;
  /** Lob's API base (https://api.lob.com/v1 by default); tests point it at a local fake. */
  baseUrl?: string;
  usCents: number;
  intlCents: number;
  /** How long to wait when Lob answers 429 without saying (Lob's limits are per 5 seconds). */
  defaultRetryAfterMs?: number;
}

const orEmpty = (s: string | null | undefined) => s?.trim() || undefined;

/**
 * Lob's US and international verifications through Lob's official Node client
 * (@lob/lob-typescript-sdk). A 429 becomes a VerifierError with the wait Lob asks for (its
 * `retry-after` header, else 5 s); a refused key is permanent; a 5xx or a network failure is
 * retried by the caller's job.
 */
export class LobVerifier implements AddressVerifier {
  readonly name = "lob";
  readonly label = "Lob address verification";
  /** Test keys (test_…) and live keys answer differently: their answers are kept apart. */
  readonly cacheName: string;
  readonly mode: "live" | "test";
  /** Lob's client, loaded on the first verification (not with every module that reaches the verifiers' registry: the lifecycle's runner does). */
  private clients: Promise<{
    sdk: typeof import("@lob/lob-typescript-sdk");
    us: UsVerificationsApi;
    intl: IntlVerificationsApi;
  }> | null = null;

  constructor(private readonly options: LobOptions) {
    this.mode = options.apiKey.startsWith("test_") ? "test" : "live";
    this.cacheName = this.mode === "test" ? "lob:test" : "lob";
  }

  private lob() {
    return (this.clients ??= import("@lob/lob-typescript-sdk").then(
      (sdk) => {
        const config = new sdk.Configuration({ username: this.options.apiKey, basePath: this.options.baseUrl });
        return { sdk, us: new sdk.UsVerificationsApi(config), intl: new sdk.IntlVerificationsApi(config) };
      },
      (error: unknown) => {
        this.clients = null;
        throw error;
      },
    ));
  }

  costCents(country: string | null): number {
    return country && !US_COUNTRIES.has(country) ? this.options.intlCents : this.options.usCents;
  }

  async verify(a: AddressFields): Promise<TVerification> {
    const { sdk, us, intl } = await this.lob();
    try {
      if (!a.country || US_COUNTRIES.has(a.country)) {
        const r = await us.verifySingle(
          new sdk.UsVerificationsWritable({
            primary_line: orEmpty(a.addressLine1),
            secondary_line: orEmpty(a.addressLine2),
            city: orEmpty(a.city),
            state: orEmpty(a.region),
            zip_code: orEmpty(a.postalCode),
          }),
        );
        if (this.mode === "test" && !r.deliverability) return this.testModeAnswer(a);
        const verdict = US_VERDICTS[r.deliverability ?? ""];
        if (!verdict)
          throw new VerifierError(`Lob answered an unknown deliverability “${r.deliverability}”.`, { permanent: true });
        const c = r.components;
        return {
          verdict,
          vendorVerdict: r.deliverability!,
          standardised: {
            addressLine1: r.primary_line || null,
            addressLine2: r.secondary_line || null,
            city: c?.city || a.city,
            region: c?.state || a.region,
            postalCode: c?.zip_code
              ? c.zip_code_plus_4
                ? `${c.zip_code}-${c.zip_code_plus_4}`
                : c.zip_code
              : a.postalCode,
            country: a.country ?? "US",
          },
        };
      }
      const r = await intl.verifySingle(
        new sdk.IntlVerificationWritable({
          primary_line: orEmpty(a.addressLine1),
          secondary_line: orEmpty(a.addressLine2),
          city: orEmpty(a.city),
          state: orEmpty(a.region),
          postal_code: orEmpty(a.postalCode),
          country: a.country,
        }),
      );
      if (this.mode === "test" && !r.deliverability) return this.testModeAnswer(a);
      const verdict = INTL_VERDICTS[r.deliverability ?? ""];
      if (!verdict)
        throw new VerifierError(`Lob answered an unknown deliverability “${r.deliverability}”.`, { permanent: true });
      const c = r.components;
      return {
        verdict,
        vendorVerdict: r.deliverability!,
        standardised: {
          addressLine1: r.primary_line || null,
          addressLine2: r.secondary_line || null,
          city: c?.city || a.city,
          region: c?.state || a.region,
          postalCode: c?.postal_code || a.postalCode,
          country: a.country,
        },
      };
    } catch (error) {
      throw this.explain(error);
    }
  }

  /**
   * Lob's test mode looks nothing up: an address other than its documented test addresses comes
   * back with no deliverability. That says nothing about the address (never "undeliverable").
   */
  private testModeAnswer(a: AddressFields): TVerification {
    return { verdict: "not_verified", vendorVerdict: "test_mode", standardised: a };
  }

  /** Lob's documented errors ({ error: { message, status_code, code } }) as VerifierErrors. */
  private explain(error: unknown): Error {
    if (error instanceof VerifierError) return error;
    const e = error as {
      response?: {
        status?: number;
        headers?: Record<string, string | undefined>;
        data?: { error?: { message?: string; code?: string } };
      };
      code?: string;
      message?: string;
    };
    const status = e.response?.status;
    const body = e.response?.data?.error;
    if (status === 429) {
      const seconds = Number(e.response?.headers?.["retry-after"]);
      return new VerifierError("Lob asked us to slow down (429).", {
        status,
        code: body?.code ?? "rate_limit_exceeded",
        retryAfterMs:
          Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : (this.options.defaultRetryAfterMs ?? 5000),
      });
    }
    if (status === 401 || status === 403)
      return new VerifierError("Lob refused the API key (LOB_API_KEY): check it in Lob's dashboard.", {
        status,
        code: body?.code,
        permanent: true,
        fatal: true,
      });
    if (status === 400 || status === 404 || status === 413 || status === 422)
      return new VerifierError(`Lob could not verify this address: ${body?.message ?? "the request was refused"}.`, {
        status,
        code: body?.code,
        permanent: true,
      });
    if (status)
      return new VerifierError(`Lob answered ${status}${body?.message ? `: ${body.message}` : ""}.`, {
        status,
        code: body?.code,
      });
    return new VerifierError(`Lob could not be reached (${e.code ?? e.message ?? "network error"}).`);
  }
}
