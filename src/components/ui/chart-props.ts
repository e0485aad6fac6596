import { formatNumber } from "./format";

/** A count axis: whole-number ticks with thousands separators, wide enough for its labels. */
export const countAxisProps = { allowDecimals: false, tickFormatter: (v: number) => formatNumber(v), width: 64 };

/** Props for a Mantine chart whose values are counts (ticks and tooltips alike). */
export const countChartProps = { yAxisProps: countAxisProps, valueFormatter: (v: number) => formatNumber(v) };
