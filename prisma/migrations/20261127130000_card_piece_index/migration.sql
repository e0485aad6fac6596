-- The lifecycle reads a piece's latest approval card with each batch (entry/lifecycle/snapshot.ts):
-- found by the piece, newest first, instead of scanning every card.
CREATE INDEX "ConfirmationCard_pieceId_createdAt_idx" ON "ConfirmationCard"("pieceId", "createdAt" DESC);
