-- Webhooks (issue 5): the frozen envelope of each delivery, a lease that lets a live worker take over a
-- delivery whose worker died mid-attempt, and when an endpoint was last re-activated (auto-disable counts
-- exhausted deliveries since then).

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN "reactivatedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "payload" TEXT NOT NULL,
ADD COLUMN "leaseToken" TEXT,
ADD COLUMN "leaseExpiresAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_leaseExpiresAt_idx" ON "WebhookDelivery"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_createdAt_idx" ON "WebhookDelivery"("status", "createdAt");
