import { AppError } from "@/server/ground/errors";
import type { VendorConnector } from "./connector";
import { explainLobError, lobSdk } from "./lob";

/** Lob's API base: LOB_API_URL, else Lob's own. */
export const lobApiUrl = (env: Record<string, string | undefined> = process.env) =>
  env.LOB_API_URL?.trim() || "https://api.lob.com/v1";

const modeOfKey = (apiKey: string): "test" | "live" | null =>
  apiKey.startsWith("test_") ? "test" : apiKey.startsWith("live_") ? "live" : null;

/** Checks a Lob key with a read that creates nothing (the first page of postcards). */
async function checkLobKey(apiKey: string) {
  const { Configuration, PostcardsApi } = await lobSdk();
  try {
    await new PostcardsApi(new Configuration({ username: apiKey, basePath: lobApiUrl() })).list(1);
  } catch (error) {
    const e = explainLobError(error);
    if (e.reason === "key_revoked")
      throw new AppError(
        "validation_failed",
        "Lob refused this API key: it is wrong or has been revoked. Copy a secret key from Lob's dashboard (Settings → API Keys). Nothing was saved.",
        { errors: [{ pointer: "/apiKey", detail: "Lob refused this key." }] },
      );
    if (e.reason === "rate_limited")
      throw new AppError(
        "rate_limited",
        "Lob is limiting requests right now, so the key could not be checked; nothing was saved. Try again in a minute.",
      );
    throw new AppError(
      "validation_failed",
      `Lob could not be reached to check the key (${e.message}). Nothing was saved; try again in a moment.`,
      { errors: [{ pointer: "/apiKey", detail: "Lob could not be reached." }] },
    );
  }
}

/** Lob: the key's prefix says its mode (a test key prints nothing); Lob signs its webhooks. */
export const lobConnector: VendorConnector = {
  vendor: "lob",
  label: "Lob",
  fulfils: "postcards and letters",
  webhooks: true,
  async check({ apiKey, webhookSecret }) {
    const mode = modeOfKey(apiKey);
    if (!mode)
      throw new AppError(
        "validation_failed",
        "A Lob secret API key starts with test_ or live_ (the publishable keys, test_pub_ or live_pub_, cannot print).",
        { errors: [{ pointer: "/apiKey", detail: "Paste a secret key: test_… or live_…" }] },
      );
    if (apiKey.startsWith("test_pub_") || apiKey.startsWith("live_pub_"))
      throw new AppError(
        "validation_failed",
        "That is a publishable key; paste the secret API key (test_… or live_…) from Lob's dashboard.",
        { errors: [{ pointer: "/apiKey", detail: "Paste the secret key." }] },
      );
    if (!webhookSecret)
      throw new AppError("validation_failed", "Paste the signing secret Lob shows for the webhook you created.", {
        errors: [{ pointer: "/webhookSecret", detail: "Paste the webhook's signing secret." }],
      });
    await checkLobKey(apiKey);
    return { mode };
  },
};
