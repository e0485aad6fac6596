const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const number = new Intl.NumberFormat("en-US");
// Emails are read anywhere: times are written in UTC and say so.
const dateTime = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

export const formatCents = (cents: number) => money.format(cents / 100);
export const formatNumber = (n: number) => number.format(n);
export const formatDateTimeUtc = (d: Date) => `${dateTime.format(d)} UTC`;
