import type { UseFormReturnType } from "@mantine/form";
import type { TCampaignDraft } from "@/server/programme/campaigns/schema";
import type { TGiftItem } from "@/server/programme/designs/gift-catalog";
import {
  CLAIM_WINDOW_DAYS,
  type TPageCallToAction,
  type TResponseMode,
} from "@/server/programme/responses/page-settings";

/** The campaign form's values, and how they map to and from a campaign draft. */
export interface FormValues {
  name: string;
  format: TCampaignDraft["format"];
  audienceId: string | null;
  acceptsApiEvents: boolean;
  entryPolicy: NonNullable<TCampaignDraft["entryPolicy"]>;
  /** datetime-local value in the browser's time zone; empty: at once. */
  sendAt: string;
  holdoutPercent: number;
  frequencyCapContact: number | string;
  frequencyCapAccount: number | string;
  frequencyWindowDays: number;
  reviewGate: TCampaignDraft["reviewGate"];
  budgetDollars: number;
  fulfilmentContractId: string | null;
  designId: string | null;
  destinationUrl: string;
  headline: string;
  bodyTemplate: string;
  signOff: string;
  endsAt: string;
  responseMode: TResponseMode;
  pageCallToAction: TPageCallToAction;
  meetingUrl: string;
  giftOptions: TGiftItem[];
  claimWindowDays: number;
}

export const blank: FormValues = {
  name: "",
  format: "postcard",
  audienceId: null,
  acceptsApiEvents: true,
  entryPolicy: "audience_at_go_live",
  sendAt: "",
  holdoutPercent: 20,
  frequencyCapContact: 1,
  frequencyCapAccount: "",
  frequencyWindowDays: 30,
  reviewGate: "none",
  budgetDollars: 500,
  fulfilmentContractId: null,
  designId: null,
  destinationUrl: "",
  headline: "",
  bodyTemplate: "",
  signOff: "",
  endsAt: "",
  responseMode: "redirect",
  pageCallToAction: "reply",
  meetingUrl: "",
  giftOptions: [],
  claimWindowDays: CLAIM_WINDOW_DAYS.default,
};

/** A date as a datetime-local input shows it, in the browser's time zone. */
const toLocalInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

const optionalInt = (v: number | string) => (v === "" || v === null ? null : Number(v));

export function toDraft(v: FormValues): TCampaignDraft {
  return {
    name: v.name,
    format: v.format,
    audienceId: v.audienceId,
    acceptsApiEvents: v.acceptsApiEvents,
    entryPolicy: v.entryPolicy,
    sendAt: v.entryPolicy !== "none" && v.sendAt ? new Date(v.sendAt) : null,
    holdoutShare: Math.round(v.holdoutPercent * 10) / 1000,
    frequencyCapContact: optionalInt(v.frequencyCapContact),
    frequencyCapAccount: optionalInt(v.frequencyCapAccount),
    frequencyWindowDays: v.frequencyWindowDays,
    reviewGate: v.reviewGate,
    budgetCents: Math.round(v.budgetDollars * 100),
    fulfilmentContractId: v.fulfilmentContractId,
    designId: v.designId,
    destinationUrl: v.destinationUrl.trim() || null,
    headline: v.headline,
    bodyTemplate: v.bodyTemplate,
    signOff: v.signOff,
    endsAt: v.endsAt ? new Date(`${v.endsAt}T23:59:59Z`) : null,
    responseMode: v.responseMode,
    pageCallToAction: v.pageCallToAction,
    meetingUrl: v.meetingUrl.trim() || null,
    giftOptions: v.format === "gift" ? v.giftOptions : [],
    claimWindowDays: v.claimWindowDays,
  };
}

export function fromDraft(c: TCampaignDraft): FormValues {
  return {
    ...c,
    holdoutPercent: Math.round(c.holdoutShare * 1000) / 10,
    frequencyCapContact: c.frequencyCapContact ?? "",
    frequencyCapAccount: c.frequencyCapAccount ?? "",
    budgetDollars: c.budgetCents / 100,
    designId: c.designId ?? null,
    destinationUrl: c.destinationUrl ?? "",
    endsAt: c.endsAt ? new Date(c.endsAt).toISOString().slice(0, 10) : "",
    entryPolicy: c.entryPolicy ?? "none",
    sendAt: c.sendAt ? toLocalInput(new Date(c.sendAt)) : "",
    responseMode: c.responseMode ?? "redirect",
    pageCallToAction: c.pageCallToAction ?? "reply",
    meetingUrl: c.meetingUrl ?? "",
    giftOptions: c.giftOptions ?? [],
    claimWindowDays: c.claimWindowDays ?? CLAIM_WINDOW_DAYS.default,
  };
}

export type CampaignFormApi = UseFormReturnType<FormValues>;
