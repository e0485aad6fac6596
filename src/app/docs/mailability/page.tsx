import {
  Anchor,
  Code,
  List,
  ListItem,
  Table,
  TableTbody,
  TableTd,
  TableTh,
  TableThead,
  TableTr,
  Text,
  Title,
} from "@mantine/core";
import type { Metadata } from "next";
import { DocPage } from "@/components/docs/doc-page";
import { MAILABILITY_REASONS, REASON_DETAILS, REASON_LABELS } from "@/server/programme/mailability/reasons";
import { AUDIT_MAX_AGE_DAYS } from "@/server/programme/mailability/staleness";
import { VERIFICATION_MAX_AGE_DAYS } from "@/server/programme/mailability/verifiers/cache";

export const metadata: Metadata = { title: "Mailability reasons" };

/** Every mailability reason for people: what it means, what it stops, and what to do. */
export default function MailabilityPage() {
  return (
    <DocPage>
      <Title order={1}>Mailability: statuses and reasons</Title>
      <Text>
        The mailability audit gives each contact of an audience a verdict: <Code>mailable</Code>, <Code>fixable</Code>{" "}
        (a likely correction exists, one click or one <Code>contacts_apply_fix</Code> call to accept) or{" "}
        <Code>unmailable</Code>, with every reason that applies. The lifecycle&apos;s suppression and address gates
        apply the same verdict before printing, so the audit and the mail agree. Also as{" "}
        <Anchor href="/docs/mailability.md">Markdown</Anchor>.
      </Text>
      <Title order={2}>Reasons</Title>
      <Table>
        <TableThead>
          <TableTr>
            <TableTh>Reason</TableTh>
            <TableTh>What it means</TableTh>
            <TableTh>What it stops</TableTh>
            <TableTh>What to do</TableTh>
          </TableTr>
        </TableThead>
        <TableTbody>
          {MAILABILITY_REASONS.map((r) => (
            <TableTr key={r} id={r}>
              <TableTd>
                <Code>{r}</Code>
                <Text size="xs" c="dimmed">
                  {REASON_LABELS[r]}
                </Text>
              </TableTd>
              <TableTd>{REASON_DETAILS[r].means}</TableTd>
              <TableTd>{REASON_DETAILS[r].blocks}</TableTd>
              <TableTd>{REASON_DETAILS[r].fix}</TableTd>
            </TableTr>
          ))}
        </TableTbody>
      </Table>
      <Title order={2}>Statuses</Title>
      <List spacing="xs">
        <ListItem>
          <Code>mailable</Code>: no reason that stops mail in the format judged (informational reasons may be listed).
        </ListItem>
        <ListItem>
          <Code>fixable</Code>: the address as the service normalises it (ISO country code, the region&apos;s postal
          code, the country&apos;s own form of the postal code) would be mailable; that normalised form is the suggested
          fix.
        </ListItem>
        <ListItem>
          <Code>unmailable</Code>: a reason stops mail and no normalisation mends it.
        </ListItem>
      </List>
      <Text>
        An audience audit judges for any format (the smallest address block, a 4 × 6 in postcard&apos;s; a PO box only
        informs). A campaign&apos;s audit judges for its format, its design&apos;s address block and its printer&apos;s
        countries; go-live readiness asks for it, and it goes out of date when contacts join or change, suppressions are
        added, the campaign&apos;s format, design or printer changes, or after {AUDIT_MAX_AGE_DAYS} days.
      </Text>
      <Title order={2}>Address verification</Title>
      <Text>
        With verification, each distinct normalised address is checked by the service&apos;s verifier: the sandbox (free
        and deterministic by content: a street line containing “undeliverable”, “missing unit” or “unnecessary unit”
        gets that answer, anything else is deliverable) or Lob&apos;s US and international verifications when the
        service has a Lob API key. Answers are kept for {VERIFICATION_MAX_AGE_DAYS} days per workspace and address, so
        an address is paid for once; the price per verification and the run&apos;s estimate are shown before it starts.
      </Text>
      <Title order={2}>In the lifecycle</Title>
      <Text>
        An event skipped by these gates keeps its <Anchor href="/docs/lifecycle">skip reason</Anchor> (
        <Code>suppressed</Code>, <Code>address_invalid</Code> or <Code>address_duplicate</Code>), and{" "}
        <Code>entry_events_get</Code> adds <Code>mailabilityReasons</Code>, the reasons above that stopped it.
      </Text>
    </DocPage>
  );
}
