-- Only an owner changes the owner (spec/dashboard.md): a key remembers whether whoever made it could,
-- so an admin cannot get round the rule by making a key with every scope.
ALTER TABLE "ApiKey" ADD COLUMN "canChangeOwner" BOOLEAN NOT NULL DEFAULT true;

-- Keys made by a staff member who is not an owner, and the keys those keys made, in turn.
WITH RECURSIVE "weak" AS (
  SELECT k."id" FROM "ApiKey" k JOIN "StaffUser" s ON s."id" = k."createdByStaffId" WHERE s."role" <> 'OWNER'
  UNION
  SELECT k."id" FROM "ApiKey" k JOIN "weak" w ON k."createdByKeyId" = w."id"
)
UPDATE "ApiKey" SET "canChangeOwner" = false WHERE "id" IN (SELECT "id" FROM "weak");
