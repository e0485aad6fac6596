import Papa from "papaparse";

/**
 * One CSV line for a spreadsheet: values that a spreadsheet would run as a formula (=, +, -, @,
 * tab or carriage return first) are written with a leading apostrophe (Papa Parse's escapeFormulae),
 * so opening the file never runs what a contact's data says.
 */
export const csvLine = (values: (string | number | null | undefined)[]) =>
  `${Papa.unparse([values.map((v) => (v === null || v === undefined ? "" : String(v)))], { escapeFormulae: true, newline: "\r\n" })}\r\n`;
