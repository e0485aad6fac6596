"use client";

import { ChartFigure } from "@/components/ui/chart-figure";
import { formatNumber } from "@/components/ui/format";
import { LineChart } from "@mantine/charts";
import { Alert, Anchor, Code, Grid, NumberInput, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { type FieldSpec, toolBySlug } from "./tool-specs";

const toApi = (f: FieldSpec, v: number) => (f.percent ? v / 100 : f.dollars ? Math.round(v * 100) : v);

/** A calculator for people: the form, the answer in words (from the public API) and a chart. */
export function CalculatorPage({ slug }: { slug: string }) {
  const tool = toolBySlug(slug)!;
  const [values, setValues] = useState<Record<string, number | string>>(
    Object.fromEntries(tool.fields.map((f) => [f.name, f.initial])),
  );
  const [debounced] = useDebouncedValue(values, 300);
  const params = useMemo(() => {
    const q = new URLSearchParams();
    for (const f of tool.fields) {
      const v = debounced[f.name];
      if (v === "" || v === undefined) continue;
      q.set(f.name, String(toApi(f, Number(v))));
    }
    return q.toString();
  }, [debounced, tool.fields]);
  const url = `/api/tools/${tool.slug}?${params}`;
  const result = useQuery({
    queryKey: ["tool", url],
    queryFn: async () => {
      const res = await fetch(url);
      const body = await res.json();
      if (!res.ok) throw Object.assign(new Error(body.detail), { problem: body });
      return body as Record<string, unknown>;
    },
    retry: false,
  });
  const numeric = Object.fromEntries(
    tool.fields.filter((f) => values[f.name] !== "").map((f) => [f.name, toApi(f, Number(values[f.name]))]),
  );
  const chart = result.isSuccess
    ? tool.chart({ alpha: 0.05, power: 0.8, holdoutShare: 0.5, grossMargin: 1, ...numeric })
    : null;
  const problem = (result.error as { problem?: { errors?: { parameter: string; detail: string }[] } } | null)?.problem;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{tool.title}</Title>
        <Text c="dimmed">{tool.intro}</Text>
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper
            withBorder
            p="lg"
            component="form"
            onSubmit={(e) => e.preventDefault()}
            aria-label={`${tool.title} inputs`}
          >
            <Stack>
              {tool.fields.map((f) => (
                <NumberInput
                  key={f.name}
                  label={f.label}
                  description={f.help}
                  value={values[f.name]}
                  onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
                  min={f.min}
                  max={f.max}
                  step={f.step ?? (f.percent ? 1 : undefined)}
                  suffix={f.percent ? "%" : undefined}
                  prefix={f.dollars ? "$" : undefined}
                  thousandSeparator=","
                  decimalScale={f.percent || f.dollars ? 2 : 0}
                  allowNegative={false}
                  error={problem?.errors?.find((e) => e.parameter === f.name)?.detail}
                />
              ))}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <Paper withBorder p="lg" aria-live="polite">
              <Title order={2} size="h4" mb="xs">
                Answer
              </Title>
              {result.isPending ? (
                <Skeleton h={48} />
              ) : result.isError ? (
                <Alert color="red" title="Check the inputs">
                  {result.error.message}
                </Alert>
              ) : (
                <Text size="lg" fw={500}>
                  {tool.answer(result.data)}
                </Text>
              )}
            </Paper>
            {chart && chart.data.length > 1 && (
              <Paper withBorder p="lg">
                <Title order={2} size="h4" mb="sm">
                  {chart.yLabel} by {chart.xLabel.toLowerCase()}
                </Title>
                <ChartFigure label={chart.data.map((d) => `${d[chart.x]}: ${d[chart.series[0].name]}`).join(", ")}>
                  <LineChart
                    h={260}
                    data={chart.data}
                    dataKey={chart.x}
                    series={chart.series}
                    curveType="monotone"
                    xAxisLabel={chart.xLabel}
                    yAxisLabel={chart.yLabel}
                    // The x values are numbers: spaced by their value, not evenly as categories.
                    xAxisProps={{
                      type: "number",
                      domain: ["dataMin", "dataMax"],
                      tickFormatter: (v: number) => formatNumber(v),
                      height: 50,
                    }}
                    yAxisProps={{ tickFormatter: (v: number) => formatNumber(v), width: 80 }}
                    valueFormatter={(v: number) => formatNumber(v)}
                    withTooltip
                  />
                </ChartFigure>
              </Paper>
            )}
            <Text size="sm" c="dimmed">
              The same answer as JSON, for scripts and agents:{" "}
              <Anchor href={url}>
                <Code>GET {url.length > 80 ? `${url.slice(0, 80)}…` : url}</Code>
              </Anchor>
            </Text>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
