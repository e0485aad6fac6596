import { Badge, Text } from "@mantine/core";
import type { AlwaysValidResult, AlwaysValidVerdict } from "@/server/programme/holdouts/always-valid";

const signedPct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
const color: Record<AlwaysValidVerdict, string> = {
  lift: "teal",
  negative: "red",
  undecided: "gray",
  not_enough_data: "yellow",
  not_measurable: "orange",
};
const label: Record<AlwaysValidVerdict, string> = {
  lift: "Lift",
  negative: "Negative",
  undecided: "Undecided",
  not_enough_data: "Not enough data yet",
  not_measurable: "Not measurable",
};

/** One outcome's lift interval and verdict that hold however often the results are read. */
export function AlwaysValidLiftCell({ av }: { av: AlwaysValidResult }) {
  if (av.verdict === "not_measurable") return <>n/a</>;
  return (
    <>
      <Text size="sm">
        {signedPct(av.absoluteLiftCi[0])} to {signedPct(av.absoluteLiftCi[1])} pts
      </Text>
      <Badge
        color={color[av.verdict]}
        variant="light"
        h="auto"
        py={2}
        mt={4}
        styles={{ label: { whiteSpace: "normal", overflow: "visible" } }}
      >
        {label[av.verdict]}
      </Badge>
      <Text size="xs" mt={4}>
        {av.explanation}
      </Text>
    </>
  );
}

/** What each of the two intervals means, under the table. */
export function TwoIntervalsNote() {
  return (
    <Text size="xs" c="dimmed">
      <strong>Lift (95% interval), p-value and verdict</strong> are a fixed-horizon test: when mail does nothing, they
      show a lift or a loss in about 5 of 100 campaigns if read once, at a time chosen in advance (such as after the
      outcome window), and in far more if checked again and again while the campaign runs. <strong>Any time</strong> is
      a wider 95% interval (a confidence sequence, from a mixture sequential probability ratio test) with its own
      verdict: when mail does nothing, it shows a lift or a loss in at most 5 of 100 campaigns however often each is
      read, so it is the one to act on before the campaign ends.
    </Text>
  );
}
