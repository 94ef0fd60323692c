-- Recover (README "Webhooks"): a record per recover of an endpoint, with the job's progress.
CREATE TYPE "WebhookRecoveryStatus" AS ENUM ('queued', 'running', 'done', 'failed');

CREATE TABLE "WebhookRecovery" (
    "id" TEXT NOT NULL DEFAULT ('wrc_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "storeId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "status" "WebhookRecoveryStatus" NOT NULL DEFAULT 'queued',
    "since" TIMESTAMP(3) NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "eventTypes" TEXT[],
    "total" INTEGER,
    "queued" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "cursorCreatedAt" TIMESTAMP(3),
    "cursorId" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookRecovery_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "WebhookRecovery_endpointId_createdAt_id_idx" ON "WebhookRecovery"("endpointId", "createdAt", "id");

ALTER TABLE "WebhookRecovery" ADD CONSTRAINT "WebhookRecovery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
