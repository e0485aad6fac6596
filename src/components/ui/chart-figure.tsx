import type { ReactNode } from "react";

/**
 * A chart as one image for assistive technology, named by `label` (the figures it shows, in
 * words). Mantine's chart roots are plain divs, where an aria-label is not allowed.
 */
export function ChartFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="img" aria-label={label}>
      {children}
    </div>
  );
}
