-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "programmeHoldoutShare" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ProgrammeHoldout" (
    "workspaceId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "arm" "HoldoutArm" NOT NULL,
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProgrammeHoldout_pkey" PRIMARY KEY ("workspaceId","accountId")
);

-- CreateIndex
CREATE INDEX "ProgrammeHoldout_workspaceId_arm_idx" ON "ProgrammeHoldout"("workspaceId", "arm");

-- AddForeignKey
ALTER TABLE "ProgrammeHoldout" ADD CONSTRAINT "ProgrammeHoldout_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProgrammeHoldout" ADD CONSTRAINT "ProgrammeHoldout_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
