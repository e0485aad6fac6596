import fs from "node:fs";
import type { DemoSummary } from "@/server/programme/demo/seed";
import { demoFile } from "./env";
import type { FuzzWorkspace } from "./fuzz-workspace";
import type { TestAgents } from "./test-agents";
import type { TestKeys } from "./test-keys";

export type E2eDemo = DemoSummary & {
  testKeys: TestKeys;
  testAgents: TestAgents;
  fuzz: FuzzWorkspace;
  hardening: FuzzWorkspace;
  database: "pglite" | "postgres";
};

/** The demo the server under test was seeded with (written by e2e/support/serve.ts). */
export function demo(): E2eDemo {
  return JSON.parse(fs.readFileSync(demoFile, "utf8"));
}
