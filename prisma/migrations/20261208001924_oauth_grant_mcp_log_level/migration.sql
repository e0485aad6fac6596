-- AlterTable
ALTER TABLE "OAuthGrant" ADD COLUMN     "mcpLogLevel" TEXT;
