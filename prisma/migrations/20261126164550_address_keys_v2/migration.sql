-- Issue 25. Address keys v2: a contact's addressKey and matchKey, an address suppression's value
-- and the address verifier's cache keys now read street types and units in one form (Street/St,
-- Suite/Ste, Straße/Str.), a ZIP+4 as its ZIP, and keep letters of every script. The key function
-- (src/server/entry/lifecycle/gates/address.ts addressKey) reads Mapbox's and USPS's word lists,
-- which SQL cannot: this migration records the recompute as pending (DataBackfill), and the
-- start-up step after the migrations (src/server/contacts/rekey.ts) runs it once and sets doneAt.
-- Verification modes: an audit keeps whether its verifier looked addresses up (live) or not (a
-- test key, the sandbox), and how many contacts' answers verified nothing.

-- AlterTable
ALTER TABLE "MailabilityAudit" ADD COLUMN     "verificationMode" TEXT,
ADD COLUMN     "verificationsNotVerified" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "DataBackfill" (
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "DataBackfill_pkey" PRIMARY KEY ("name")
);

INSERT INTO "DataBackfill" ("name") VALUES ('address_keys_v2');

-- The sandbox verified nothing: its cached "deliverable" answers say so now, and its audits name their mode.
UPDATE "AddressVerification" SET verdict = 'not_verified', "vendorVerdict" = 'not_verified' WHERE verifier = 'sandbox' AND verdict = 'deliverable';
UPDATE "MailabilityAudit" SET "verificationMode" = 'sandbox' WHERE verify AND verifier = 'sandbox';
