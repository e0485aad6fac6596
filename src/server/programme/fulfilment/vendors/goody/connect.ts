import { AppError } from "@/server/ground/errors";
import type { VendorConnector } from "../connector";
import { explainGoodyError, GoodyApi, goodyApiUrl, goodyModeOf } from "./api";

/** A Svix signing secret as Goody's webhook page shows it: whsec_ and base64. */
const SVIX_SECRET = /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/;

/**
 * Goody: the key is checked with GET /v1/me (which creates nothing), and the signing secret of the
 * webhook endpoint the owner added in Goody is required (Goody's webhooks come through Svix). The
 * mode is Goody's environment: its production API ships real gifts (live); its sandbox, or any
 * other GOODY_API_URL, ships nothing (test).
 */
export const goodyConnector: VendorConnector = {
  vendor: "goody",
  label: "Goody",
  fulfils: "gifts",
  webhooks: true,
  async check({ apiKey, webhookSecret }) {
    if (!SVIX_SECRET.test(webhookSecret ?? ""))
      throw new AppError(
        "validation_failed",
        "Paste the signing secret of the webhook endpoint you added in Goody (it starts with whsec_): without it Goody's shipping events cannot be trusted.",
        { errors: [{ pointer: "/webhookSecret", detail: "Paste the endpoint's signing secret (whsec_…)." }] },
      );
    const baseUrl = goodyApiUrl();
    try {
      await new GoodyApi(baseUrl, apiKey).me();
    } catch (error) {
      const e = explainGoodyError(error);
      if (e.reason === "key_revoked")
        throw new AppError(
          "validation_failed",
          "Goody refused this API key: it is wrong or has been revoked. Create a key in Goody (Account → API Keys). Nothing was saved.",
          { errors: [{ pointer: "/apiKey", detail: "Goody refused this key." }] },
        );
      throw new AppError(
        "validation_failed",
        `Goody could not be reached to check the key (${e.message}). Nothing was saved; try again in a moment.`,
        { errors: [{ pointer: "/apiKey", detail: "Goody could not be reached." }] },
      );
    }
    return { mode: goodyModeOf(baseUrl) };
  },
};
