-- CreateTable
CREATE TABLE "CrmRecordLink" (
    "connectionId" TEXT NOT NULL,
    "objectType" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "localId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CrmRecordLink_pkey" PRIMARY KEY ("connectionId","objectType","externalId")
);

-- CreateIndex
CREATE INDEX "CrmRecordLink_connectionId_objectType_localId_idx" ON "CrmRecordLink"("connectionId", "objectType", "localId");

-- AddForeignKey
ALTER TABLE "CrmRecordLink" ADD CONSTRAINT "CrmRecordLink_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "CrmConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
