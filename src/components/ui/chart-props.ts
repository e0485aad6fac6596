import { formatNumber } from "./format";

/**
 * A count axis: whole-number ticks with thousands separators, wide enough for its labels, every
 * tick shown (`interval: 0`: recharts computes at most five, evenly spaced; its default,
 * "preserveEnd", drops the one under the top tick in a short chart, reading 0, 1, 2, 4).
 */
export const countAxisProps = {
  allowDecimals: false,
  tickFormatter: (v: number) => formatNumber(v),
  width: 64,
  interval: 0,
};

/** Props for a Mantine chart whose values are counts (ticks and tooltips alike). */
export const countChartProps = { yAxisProps: countAxisProps, valueFormatter: (v: number) => formatNumber(v) };
