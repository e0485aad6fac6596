/** A format named in a sentence, in the plural: "handwritten" is an adjective, its pieces are notes. */
const FORMAT_PLURAL: Record<string, string> = {
  postcard: "postcards",
  letter: "letters",
  handwritten: "handwritten notes",
  gift: "gifts",
};

export const formatPlural = (format: string | null) => (format ? (FORMAT_PLURAL[format] ?? `${format}s`) : "pieces");
