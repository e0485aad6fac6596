import { FORMATS, SIZES, type TFormat } from "@/server/ground/render/page-specs";

/**
 * The print products per format that a printer contract is for: the same sizes the renderer lays
 * out (src/server/ground/render/page-specs.ts), so a campaign's design and its contract always agree.
 */
export const PRINT_SIZES = Object.fromEntries(
  FORMATS.map((format) => [format, Object.entries(SIZES[format]).map(([size, spec]) => ({ size, label: spec.label }))]),
) as Record<TFormat, { size: string; label: string }[]>;

export type TPrintFormat = TFormat;
export const PRINT_FORMATS = FORMATS;
export const ALL_PRINT_SIZES = [...new Set(FORMATS.flatMap((f) => PRINT_SIZES[f].map((s) => s.size)))];

export function sizeLabel(format: TPrintFormat, size: string | null | undefined): string {
  return PRINT_SIZES[format].find((s) => s.size === size)?.label ?? PRINT_SIZES[format][0].label;
}

export const isSizeOf = (format: TPrintFormat, size: string): boolean =>
  PRINT_SIZES[format].some((s) => s.size === size);
