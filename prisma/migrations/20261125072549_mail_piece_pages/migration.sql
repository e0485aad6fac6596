-- AlterTable
ALTER TABLE "MailPiece" ADD COLUMN     "pages" INTEGER;
