import type { HostedPage } from "@/server/programme/responses/page-model";
import { countryName } from "@/server/programme/responses/shipping-address";
import { MAX_ADDRESS_LINE } from "@/server/programme/responses/shipping-address";
import { html, type SafeHtml } from "./html";
import { fieldHtml, type FormState, footerHtml, hiddenHtml, letterHtml, longDate, noticeHtml } from "./page-parts";
import { renderDocument } from "./page-shell";

type GiftPage = Extract<HostedPage, { kind: "gift_claim" }>;

function addressHtml(page: GiftPage): SafeHtml {
  const a = page.address;
  if (!a) return html``;
  const who = `${page.recipient.firstName} ${page.recipient.lastName}`.trim();
  const cityLine = [a.city, [a.region, a.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return html`<address class="address">${who}<br>${a.addressLine1}${a.addressLine2 ? html`<br>${a.addressLine2}` : ""}<br>${cityLine}<br>${countryName(a.country)}</address>`;
}

function giftChoice(page: GiftPage, state: FormState): SafeHtml {
  const selected = state.values?.gift ?? page.claim.preselected;
  const error = state.errors?.gift;
  if (page.gifts.length === 1) {
    const g = page.gifts[0];
    return html`<h2 id="gift-title">Your gift</h2>
<div class="gift"><div><strong>${g.name}</strong>${g.description}</div></div>
${hiddenHtml({ gift: g.id })}`;
  }
  return html`<fieldset${error ? html` aria-describedby="gift-error"` : ""}>
<legend>Choose one</legend>
${page.gifts.map(
  (
    g,
  ) => html`<div class="gift"><input type="radio" name="gift" id="gift-${g.id}" value="${g.id}"${g.id === selected ? html` checked` : ""}${error && g.id === page.gifts[0].id ? html` autofocus` : ""}>
<label for="gift-${g.id}"><strong>${g.name}</strong>${g.description}</label></div>`,
)}
${error ? html`<p class="error" id="gift-error">${error}</p>` : ""}
</fieldset>`;
}

function claimForm(page: GiftPage, state: FormState): SafeHtml {
  const a = page.address;
  const company = page.brand.companyName;
  const errors = state.errors ?? {};
  const order = ["gift", "addressLine1", "addressLine2", "city", "region", "postalCode", "country"];
  const firstError = order.find((f) => errors[f]);
  const country = state.values?.country ?? a?.country ?? page.countries[0];
  const field = (
    name: string,
    label: string,
    opts: {
      optional?: boolean;
      autocomplete: string;
      value: string | null | undefined;
      maxLength?: number;
      required?: boolean;
      hint?: string;
    },
  ) =>
    fieldHtml({
      name,
      label,
      state,
      value: opts.value,
      optional: opts.optional,
      autocomplete: opts.autocomplete,
      maxLength: opts.maxLength ?? MAX_ADDRESS_LINE,
      required: opts.required,
      hint: opts.hint,
      firstError: firstError === name,
    });
  const countryError = errors.country;
  return html`${noticeHtml(state)}
<form method="post" action="/r/${page.code}">
${hiddenHtml({ action: "claim", token: state.token })}
<section class="card" aria-labelledby="gift-title">
${page.gifts.length === 1 ? "" : html`<h2 id="gift-title">Your gift</h2>`}
${giftChoice(page, state)}
</section>
<section class="card" aria-labelledby="address-title">
<h2 id="address-title">Where should it go?</h2>
<p>Check the address and correct it if it has changed. ${company} sends the gift only after you claim it${page.claim.expiresAt ? html`, by ${longDate(page.claim.expiresAt)}` : ""}.</p>
<p class="hint">It ships to ${page.recipient.firstName} ${page.recipient.lastName} at a street address (not a PO box).</p>
${field("addressLine1", "Street address", { autocomplete: "address-line1", value: a?.addressLine1, required: true })}
${field("addressLine2", "Apartment, suite or floor", { optional: true, autocomplete: "address-line2", value: a?.addressLine2 })}
<div class="row"><div>${field("city", "City", { autocomplete: "address-level2", value: a?.city, required: true })}</div>
<div>${field("region", "State, province or region", { autocomplete: "address-level1", value: a?.region, hint: "Needed in the US, Canada and Australia." })}</div></div>
<div class="row"><div>${field("postalCode", "Postal code", { autocomplete: "postal-code", value: a?.postalCode, maxLength: 20 })}</div>
<div><label for="country">Country</label>
<select id="country" name="country" autocomplete="country"${countryError ? html` aria-invalid="true" aria-describedby="country-error"` : ""}${countryError && firstError === "country" ? html` autofocus` : ""}>
${[...new Set([...page.countries, country])].map((c) => html`<option value="${c}"${c === country ? html` selected` : ""}>${countryName(c)}</option>`)}
</select>
${countryError ? html`<p class="error" id="country-error">${countryError}</p>` : ""}</div></div>
<div class="actions"><button type="submit">Claim my gift</button></div>
</section>
</form>
<section class="card" aria-labelledby="decline-title">
<h2 id="decline-title">Not for you?</h2>
<p>Declining tells ${company}, and nothing will be sent.</p>
<form method="post" action="/r/${page.code}">
${hiddenHtml({ action: "decline", token: state.token })}
<div class="actions"><button type="submit" class="secondary">No thanks, decline the gift</button></div>
</form>
</section>`;
}

function decided(page: GiftPage): SafeHtml {
  const company = page.brand.companyName;
  const gift = page.gifts.find((g) => g.id === page.claim.giftItem)?.name ?? "gift";
  const when = page.claim.decidedAt ? longDate(page.claim.decidedAt) : null;
  if (page.claim.state === "declined") {
    return html`<section class="card" aria-labelledby="state-title"><h2 id="state-title">You declined this gift</h2>
<p role="status">${when ? `You declined it on ${when}. ` : ""}Nothing will be sent. Thank you for letting ${company} know.</p></section>`;
  }
  if (page.claim.state === "not_sent") {
    return html`<section class="card" aria-labelledby="state-title"><h2 id="state-title">Your claim was received</h2>
<p role="status">You claimed the ${gift}${when ? ` on ${when}` : ""}, but ${company} could not send it.</p></section>`;
  }
  return html`<section class="card" aria-labelledby="state-title"><h2 id="state-title">Your gift is claimed</h2>
<p role="status">You claimed the ${gift}${when ? ` on ${when}` : ""}. ${page.piece.mailedAt ? `It was sent on ${longDate(page.piece.mailedAt)} to:` : "It will be sent to:"}</p>
${addressHtml(page)}</section>`;
}

/** A gift claim page: the gift, the shipping address to confirm or correct, a choice among the campaign's gifts, or declining. */
export function giftClaimDocument(page: GiftPage, state: FormState) {
  const headline = page.message.headline || `A gift for you, ${page.recipient.firstName}`;
  const content = html`<article class="card">${letterHtml(page, headline)}</article>
${page.claim.state === "open" ? claimForm(page, state) : decided(page)}`;
  return renderDocument({
    code: page.code,
    brand: page.brand,
    title: `${headline} · ${page.brand.companyName}`,
    content,
    footer: footerHtml(page),
  });
}
