-- Invitations a person accepts (README "Staff invitations"): one per member invited without a
-- password. Only the sha256 of the link's token is stored, and only once the send_staff_invitation job
-- has minted it; the token itself is never in the database.
CREATE TABLE "StaffInvitation" (
    "id" TEXT NOT NULL DEFAULT ('inv_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "staffUserId" TEXT NOT NULL,
    "storeId" TEXT NOT NULL,
    "invitedByName" TEXT NOT NULL,
    "tokenHash" CHAR(64),
    "sentAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StaffInvitation_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "StaffInvitation_staffUserId_key" ON "StaffInvitation"("staffUserId");
CREATE UNIQUE INDEX "StaffInvitation_tokenHash_key" ON "StaffInvitation"("tokenHash");
CREATE INDEX "StaffInvitation_storeId_idx" ON "StaffInvitation"("storeId");

ALTER TABLE "StaffInvitation" ADD CONSTRAINT "StaffInvitation_staffUserId_fkey" FOREIGN KEY ("staffUserId") REFERENCES "StaffUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;
