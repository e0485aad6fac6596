-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "giftPriceCents" INTEGER,
ADD COLUMN     "giftProductId" TEXT;
