import { describe, expect, it } from "vitest";
import { TRPC_PROCEDURES } from "../../../e2e/fuzz/trpc-procedures";
import { appRouter } from "./routers";

type ProcedureDef = { _def: { type: "query" | "mutation"; inputs: { shape?: Record<string, unknown> }[] } };

describe("the fuzz suite's list of tRPC procedures", () => {
  it("names every procedure of the owner UI's API, with its kind and input members (add a new one to e2e/fuzz/trpc-procedures.ts)", () => {
    // tRPC's types give each procedure's definition without its inputs; read them as it holds them.
    const procedures = appRouter._def.procedures as unknown as Record<string, ProcedureDef>;
    const actual = Object.entries(procedures).map(([path, p]) => ({
      path,
      type: p._def.type,
      input: [...new Set(p._def.inputs.flatMap((i) => Object.keys(i.shape ?? {})))].sort(),
    }));
    expect(actual.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      TRPC_PROCEDURES.map((p) => ({ ...p, input: [...p.input].sort() })).sort((a, b) => a.path.localeCompare(b.path)),
    );
  });
});
