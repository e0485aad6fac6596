import type { Db } from "@/server/db";
import type { FulfilmentAdapter } from "./adapter";
import { SandboxPrintVendor } from "./sandbox";

/** The adapter for a contract's vendor. A real print vendor registers here. */
export function adapterFor(vendor: string, db: Db): FulfilmentAdapter {
  if (vendor === "sandbox") return new SandboxPrintVendor(db);
  throw new Error(`no fulfilment adapter for vendor "${vendor}"`);
}
