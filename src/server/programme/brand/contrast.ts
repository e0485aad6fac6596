/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** Pairs the layouts print that would be hard to read. */
export function contrastWarnings(colors: { primary: string; accent: string; text: string }): string[] {
  const warnings: string[] = [];
  const check = (fg: string, bg: string, min: number, what: string) => {
    const ratio = contrastRatio(fg, bg);
    if (ratio < min)
      warnings.push(
        `${what} has a contrast of ${ratio.toFixed(1)}:1 (at least ${min}:1 reads well); choose a ${min === 4.5 ? "darker text colour" : "darker primary colour"}.`,
      );
  };
  check(colors.text, "#ffffff", 4.5, "Text on white");
  check("#ffffff", colors.primary, 3, "White headlines on the primary colour");
  check(colors.primary, "#ffffff", 3, "The primary colour on white");
  return warnings;
}
