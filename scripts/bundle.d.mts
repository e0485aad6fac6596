/** Compiles a TypeScript entry point of ours into one ES module run by plain Node (scripts/bundle.mjs). */
export function bundle(entry: string, outfile: string): Promise<void>;
