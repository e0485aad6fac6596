import type { EmailKind } from "@/generated/prisma/client";
import { type EmailContent, renderLayout } from "./layout";

/** A message ready for the outbox: its kind, subject, both bodies and any extra headers. */
export interface RenderedEmail {
  kind: EmailKind;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Subjects are one line of at most 200 characters (a name in one cannot add a header). */
export function rendered(
  kind: EmailKind,
  subject: string,
  content: EmailContent,
  headers?: Record<string, string>,
): RenderedEmail {
  const line = subject.replace(/[\r\n\t]+/g, " ").trim();
  return {
    kind,
    subject: line.length > 200 ? `${line.slice(0, 199)}…` : line,
    ...renderLayout(content),
    ...(headers ? { headers } : {}),
  };
}
