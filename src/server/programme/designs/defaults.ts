import type { TFormat } from "@/server/ground/render/page-specs";
import type { TBlocks } from "./schema";

/** The copy a new design starts from, per format; every merge field has a fallback. */
export const SUGGESTED_BLOCKS: Record<TFormat, TBlocks> = {
  postcard: {
    headline: "{{firstName|Hello}}, a quick idea for {{company|your team}}",
    body: "Hi {{firstName|there}},\n\nTeams like {{company|yours}} tell us the hardest part of growing is keeping everyone on the same page. We put together a short plan with three ideas you could try this quarter.\n\nThe code below opens it; it takes two minutes to read.",
    signOff: "",
    cta: "Scan to see the plan we made for {{company|you}}",
  },
  letter: {
    headline: "Three ideas for {{company|your team}} this quarter",
    body: "Dear {{firstName|reader}},\n\nI am writing because teams like {{company|yours}} often tell us the same thing: growth is exciting, and it makes everyday work harder to keep in step.\n\nWe have written up three ideas that worked for companies of your size, with what each one costs and how long it takes. There is nothing to buy and nothing to sign up for.\n\nIf one of them is useful, I would be glad to talk it through.",
    signOff: "",
    cta: "Scan the code or visit the link to read the three ideas",
  },
  handwritten: {
    headline: "Dear {{firstName|friend}},",
    body: "Thank you for the time you gave us this month. It was a pleasure to learn how {{company|your team}} works, and I wrote down a couple of ideas I think you will like.",
    signOff: "",
    cta: "A short note for you:",
  },
  gift: {
    headline: "A small thank-you, {{firstName|friend}}",
    body: "We hope this brightens a day at {{company|the office}}. Thank you for spending time with us this year.",
    signOff: "",
    cta: "Scan to tell us you received it",
  },
};
