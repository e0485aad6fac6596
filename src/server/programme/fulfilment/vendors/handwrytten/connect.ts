import { AppError } from "@/server/ground/errors";
import type { VendorConnector } from "../connector";
import { explainHandwryttenError } from "./errors";
import { HandwryttenHttp, handwryttenApiUrl } from "./http";

/** What a Handwrytten connection keeps (not secret): the card and handwriting its notes use. */
export interface HandwryttenSettings {
  cardId: string;
  cardName: string;
  font: string;
}

const truthy = (v: unknown) => v === true || v === 1 || v === "1" || v === "true";

/**
 * Handwrytten: the key is checked by reading the account's profile (auth/getUser), whose test-mode
 * switch (the Integrations page: "In test mode, orders are accepted normally but are not fulfilled",
 * handwrytten.com/api-redoc) sets the connection's mode; the account's first card and handwriting
 * font (cards/list, fonts/list) are the ones its notes use. Handwrytten sends no webhooks: status is
 * read back from each order.
 */
export const handwryttenConnector: VendorConnector = {
  vendor: "handwrytten",
  label: "Handwrytten",
  fulfils: "handwritten notes",
  webhooks: false,
  async check({ apiKey }) {
    const http = new HandwryttenHttp(handwryttenApiUrl(), apiKey);
    try {
      const user = await http.user();
      const [cards, fonts] = await Promise.all([http.cards(), http.fonts()]);
      const card = cards[0];
      const font = fonts[0];
      if (!card || !font)
        throw new AppError(
          "invalid_state",
          "This Handwrytten account offers no card or no handwriting font to write notes with. Nothing was saved.",
        );
      const settings: HandwryttenSettings = {
        cardId: String(card.id),
        cardName: card.name ?? card.title ?? `Card ${card.id}`,
        font: font.label,
      };
      return { mode: truthy(user.test_mode) ? "test" : "live", settings: { ...settings } };
    } catch (error) {
      if (error instanceof AppError) throw error;
      const e = explainHandwryttenError(error);
      if (e.reason === "key_revoked")
        throw new AppError(
          "validation_failed",
          "Handwrytten refused this API key: it is wrong or has been revoked. Copy an API key from the Integrations page of your Handwrytten dashboard. Nothing was saved.",
          { errors: [{ pointer: "/apiKey", detail: "Handwrytten refused this key." }] },
        );
      if (e.reason === "rate_limited")
        throw new AppError(
          "rate_limited",
          "Handwrytten is limiting requests right now, so the key could not be checked; nothing was saved. Try again in a minute.",
        );
      throw new AppError(
        "validation_failed",
        `Handwrytten could not be reached to check the key (${e.message}). Nothing was saved; try again in a moment.`,
        { errors: [{ pointer: "/apiKey", detail: "Handwrytten could not be reached." }] },
      );
    }
  },
};
