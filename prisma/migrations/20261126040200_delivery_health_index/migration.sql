-- Endpoint health (README "Webhooks"): each attempt carries its endpoint, so one endpoint's attempts
-- in a time range are one index range scan that also holds status, durationMs and the delivery
-- (index-only).
ALTER TABLE "WebhookAttempt" ADD COLUMN "endpointId" TEXT;

UPDATE "WebhookAttempt" AS a SET "endpointId" = d."endpointId" FROM "WebhookDelivery" AS d WHERE d.id = a."deliveryId";

ALTER TABLE "WebhookAttempt" ALTER COLUMN "endpointId" SET NOT NULL;

CREATE INDEX "WebhookAttempt_endpointId_createdAt_idx" ON "WebhookAttempt"("endpointId", "createdAt") INCLUDE ("status", "durationMs", "deliveryId");
