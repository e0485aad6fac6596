-- AlterTable
ALTER TABLE "OAuthGrant" ADD COLUMN     "clientCapabilities" JSONB;
