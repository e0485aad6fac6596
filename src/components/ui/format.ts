const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const number = new Intl.NumberFormat("en-US");

export const formatDateTime = (d: Date | string | null | undefined, empty = "Never") =>
  d ? dateTime.format(new Date(d)) : empty;
export const formatCents = (cents: number | bigint) => money.format(Number(cents) / 100);
export const formatNumber = (n: number) => number.format(n);
/** A count with its noun: "1 account", "2 accounts", "1,200 accounts". */
export const formatCount = (n: number, one: string, many = `${one}s`) => `${number.format(n)} ${n === 1 ? one : many}`;
