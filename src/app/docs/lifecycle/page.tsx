import {
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
import { GATE_ORDER } from "@/server/programme/entry/lifecycle/gate-order";
import {
  ENTRY_STATUSES,
  entryStatusDescriptions,
  SKIP_REASONS,
  skipReasonDescriptions,
  WAITING_REASONS,
  waitingReasonDescriptions,
} from "@/server/programme/entry/lifecycle-states";

export const metadata: Metadata = { title: "Entry lifecycle" };

/** The entry lifecycle for people: the statuses and skip reasons the status read returns, and the gates in order. */
export default function LifecyclePage() {
  return (
    <DocPage>
      <Title order={1}>The entry lifecycle</Title>
      <Text>
        An accepted entry event is processed afterwards through the campaign&apos;s gates, in this order. Read an
        event&apos;s progress with{" "}
        <Code>
          GET /api/v1/campaigns/{"{campaignId}"}/events/{"{eventId}"}
        </Code>
        : it returns <Code>status</Code>, and when they exist <Code>skipReason</Code>, <Code>enrollmentId</Code>,{" "}
        <Code>completedAt</Code>, and while it waits <Code>waitingReason</Code> and <Code>waitingUntil</Code>.
      </Text>
      <Title order={2}>Gates</Title>
      <List type="ordered" spacing="sm">
        {GATE_ORDER.map((g) => (
          <ListItem key={g.gate}>
            <Text fw={600} span>
              {g.gate}.
            </Text>{" "}
            {g.what}{" "}
            {g.outcomes.length > 0 && (
              <Text span c="dimmed">
                Outcome:{" "}
                {g.outcomes
                  .map((o) => <Code key={o}>{o}</Code>)
                  .reduce((a, b) => (
                    <>
                      {a}, {b}
                    </>
                  ))}
              </Text>
            )}
          </ListItem>
        ))}
      </List>
      <Text size="sm" c="dimmed">
        A paused campaign makes events wait; an ended one skips them with <Code>campaign_ended</Code> and releases what
        they held. Failed attempts are retried with backoff; an event that cannot make progress after 6 attempts ends{" "}
        <Code>failed</Code>.
      </Text>
      <Title order={2}>Gift claims</Title>
      <Text>
        A gift campaign whose printed link opens a gift claim page holds each gift&apos;s budget, then waits (
        <Code>gift_claim</Code>) for its recipient to claim it on their page: they confirm or correct the shipping
        address, may choose among the campaign&apos;s gifts, or decline. The campaign page lists each waiting
        gift&apos;s claim link for the team to send. A claimed gift goes to the printer at once, even if the campaign
        ends meanwhile; a declined one ends skipped with <Code>gift_declined</Code>, and one not claimed within the
        campaign&apos;s claim window (30 days unless set) with <Code>gift_unclaimed</Code>. Either way the budget it
        held is released.
      </Text>
      <Title order={2}>Statuses</Title>
      <Table>
        <TableThead>
          <TableTr>
            <TableTh>status</TableTh>
            <TableTh>Meaning</TableTh>
          </TableTr>
        </TableThead>
        <TableTbody>
          {ENTRY_STATUSES.map((s) => (
            <TableTr key={s}>
              <TableTd>
                <Code>{s}</Code>
              </TableTd>
              <TableTd>{entryStatusDescriptions[s]}</TableTd>
            </TableTr>
          ))}
        </TableTbody>
      </Table>
      <Title order={2}>Why an event waits</Title>
      <Table>
        <TableThead>
          <TableTr>
            <TableTh>waitingReason</TableTh>
            <TableTh>Meaning</TableTh>
          </TableTr>
        </TableThead>
        <TableTbody>
          {WAITING_REASONS.map((r) => (
            <TableTr key={r}>
              <TableTd>
                <Code>{r}</Code>
              </TableTd>
              <TableTd>{waitingReasonDescriptions[r]}</TableTd>
            </TableTr>
          ))}
        </TableTbody>
      </Table>
      <Title order={2}>Skip reasons</Title>
      <Table>
        <TableThead>
          <TableTr>
            <TableTh>skipReason</TableTh>
            <TableTh>Meaning</TableTh>
          </TableTr>
        </TableThead>
        <TableTbody>
          {SKIP_REASONS.map((r) => (
            <TableTr key={r}>
              <TableTd>
                <Code>{r}</Code>
              </TableTd>
              <TableTd>{skipReasonDescriptions[r]}</TableTd>
            </TableTr>
          ))}
        </TableTbody>
      </Table>
    </DocPage>
  );
}
