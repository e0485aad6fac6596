import type { Db } from "@/server/ground/db";
import { AppError } from "@/server/ground/errors";
import type { FulfilmentAdapter, VendorCatalogue } from "./adapter";
import { lobApiUrl, openConnection } from "./connections";
import { SandboxPrintVendor } from "./sandbox";
import { goodyVendor } from "./vendors/goody";
import { LobPrintVendor } from "./vendors/lob";
import { HandwryttenNoteVendor } from "./vendors/handwrytten/adapter";
import { handwryttenApiUrl } from "./vendors/handwrytten/http";

/** The print vendors this service can contract with. A real vendor's adapter registers here. */
export const VENDORS = ["sandbox", "lob", "handwrytten", "goody"] as const;

/** The adapter for a contract's vendor. */
export function adapterFor(vendor: string, db: Db): FulfilmentAdapter {
  if (vendor === "sandbox") return new SandboxPrintVendor(db);
  if (vendor === "lob")
    return new LobPrintVendor({
      baseUrl: lobApiUrl(),
      account: (connectionId) => openConnection(db, connectionId),
    });
  if (vendor === "handwrytten")
    return new HandwryttenNoteVendor({
      baseUrl: handwryttenApiUrl(),
      account: (connectionId) => openConnection(db, connectionId),
    });
  if (vendor === "goody") return goodyVendor(db);
  throw new AppError("validation_failed", `There is no print vendor called “${vendor}”.`);
}

/** What each vendor sells and where it mails, for choosing a contract. */
export function vendorCatalogues(db: Db): VendorCatalogue[] {
  return VENDORS.map((v) => adapterFor(v, db).catalogue());
}
