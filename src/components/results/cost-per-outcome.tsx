"use client";

import { BarChart } from "@mantine/charts";
import { Paper, Table, Text, Title } from "@mantine/core";
import { ChartFigure } from "@/components/ui/chart-figure";
import { DataTable } from "@/components/ui/data-table";
import { formatCents } from "@/components/ui/format";
import { humanize } from "../campaigns/status-badges";

/** One outcome kind's money members, as results.campaign and results.programme give them. */
export interface KindMoneyView {
  kind: string;
  incremental: number;
  incrementalCi: [number, number];
  costPerIncrementalCents: number | null;
  costPerIncrementalCiCents: [number | null, number | null] | null;
  costPerIncrementalReason: string | null;
  incrementalPerDollar: number | null;
  incrementalPerDollarCi: [number, number] | null;
}

const count = (x: number) => (Math.abs(x) >= 10 ? Math.round(x).toString() : x.toFixed(1));
const bound = (c: number | null) => (c === null ? "no bound" : formatCents(c));
const perDollar = (x: number) => formatCents(Math.round(x * 100));

/**
 * What the mail cost against what it added: the spend, then per outcome kind the incremental
 * outcomes (lift x mailed accounts, with the lift's interval), the cost of each and, for money
 * kinds, the money each dollar brought back. A cost is shown only where a lift was found; the
 * reason stands in its place otherwise. A chart compares the costs that exist.
 */
export function CostPerOutcome({ spendCents, kinds }: { spendCents: number; kinds: KindMoneyView[] }) {
  const costed = kinds.filter((k) => k.costPerIncrementalCents !== null);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4">
        What each incremental outcome cost
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Spent on mailed pieces: {formatCents(spendCents)}. An incremental outcome is one the mail added: the lift times
        the mailed accounts. Its cost is the spend divided by them, given only where the results found a lift.
      </Text>
      {costed.length > 0 && (
        <ChartFigure
          label={costed.map((k) => `${humanize(k.kind)}: ${formatCents(k.costPerIncrementalCents!)}`).join("; ")}
        >
          <BarChart
            h={200}
            data={costed.map((k) => ({
              kind: humanize(k.kind),
              "Cost per incremental outcome (USD)": Math.round(k.costPerIncrementalCents!) / 100,
            }))}
            dataKey="kind"
            series={[{ name: "Cost per incremental outcome (USD)", color: "indigo.6" }]}
            valueFormatter={(v) => `$${v.toFixed(2)}`}
          />
        </ChartFigure>
      )}
      <DataTable
        minWidth={760}
        highlightOnHover={false}
        head={
          <>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Incremental (95% interval)</Table.Th>
            <Table.Th>Cost per incremental outcome</Table.Th>
            <Table.Th>Back per dollar spent</Table.Th>
          </>
        }
      >
        {kinds.map((k) => (
          <Table.Tr key={k.kind}>
            <Table.Td>
              <Text fw={600} size="sm">
                {humanize(k.kind)}
              </Text>
            </Table.Td>
            <Table.Td>
              {count(k.incremental)} ({count(k.incrementalCi[0])} to {count(k.incrementalCi[1])})
            </Table.Td>
            <Table.Td maw={320}>
              {k.costPerIncrementalCents !== null ? (
                <>
                  {formatCents(k.costPerIncrementalCents)}
                  {k.costPerIncrementalCiCents && (
                    <Text size="xs" c="dimmed">
                      95% interval {bound(k.costPerIncrementalCiCents[0])} to {bound(k.costPerIncrementalCiCents[1])}
                    </Text>
                  )}
                </>
              ) : (
                <Text size="xs">{k.costPerIncrementalReason}</Text>
              )}
            </Table.Td>
            <Table.Td>
              {k.incrementalPerDollar !== null ? (
                <>
                  {perDollar(k.incrementalPerDollar)}
                  {k.incrementalPerDollarCi && (
                    <Text size="xs" c="dimmed">
                      95% interval {perDollar(k.incrementalPerDollarCi[0])} to {perDollar(k.incrementalPerDollarCi[1])}
                    </Text>
                  )}
                </>
              ) : (
                <Text size="xs" c="dimmed">
                  not a money outcome
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </Paper>
  );
}
