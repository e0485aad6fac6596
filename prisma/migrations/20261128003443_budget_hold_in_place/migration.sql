-- Each enrollment and each budget hold is written once by the lifecycle and then updated once
-- (an enrollment from in_fulfilment to mailed, a hold from held to charged or released), a batch's
-- rows in one statement. With neither update touching an indexed column and room on the row's page,
-- PostgreSQL updates the row in place (a HOT update) instead of writing a new entry into every index.
-- A batch's rows share their pages and are updated in one transaction, so the room must hold a
-- second version of each: half of each page is left free as rows are inserted.

-- The hold's status leaves its index (no query finds holds by campaign and status; the campaign's
-- index stays for its foreign key).
DROP INDEX "BudgetReservation_campaignId_status_idx";
CREATE INDEX "BudgetReservation_campaignId_idx" ON "BudgetReservation"("campaignId");

ALTER TABLE "Enrollment" SET (fillfactor = 50);
ALTER TABLE "BudgetReservation" SET (fillfactor = 50);
