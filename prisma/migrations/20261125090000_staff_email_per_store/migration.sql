-- One person may work for two stores: a staff e-mail is unique within its store, not across all
-- stores (so inviting an address says nothing about other stores' staff). Sign-in finds the
-- accounts of an e-mail through the plain index.
DROP INDEX "StaffUser_email_key";
CREATE UNIQUE INDEX "StaffUser_storeId_email_key" ON "StaffUser"("storeId", "email");
CREATE INDEX "StaffUser_email_idx" ON "StaffUser"("email");
