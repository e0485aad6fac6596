import type { TConnectableVendor, VendorConnector } from "./connector";
import { goodyConnector } from "./goody/connect";
import { handwryttenConnector } from "./handwrytten/connect";
import { lobConnector } from "./lob-connect";

/** Every connectable vendor's connector, by id (connector.ts says how a vendor is added). */
export const CONNECTORS: Record<TConnectableVendor, VendorConnector> = {
  lob: lobConnector,
  handwrytten: handwryttenConnector,
  goody: goodyConnector,
};

/** The vendor's name for people ("Lob", "Handwrytten"), or the id itself for one not connectable. */
export const vendorLabel = (vendor: string) => CONNECTORS[vendor as TConnectableVendor]?.label ?? vendor;
