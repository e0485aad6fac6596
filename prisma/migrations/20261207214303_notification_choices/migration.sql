-- AlterTable
ALTER TABLE "User" ADD COLUMN     "notificationsOff" "EmailKind"[] DEFAULT ARRAY[]::"EmailKind"[];
