-- The request log (README "Request log"): one row per authenticated request, written in batches by
-- the API processes (src/request-log/recorder.ts). Partitioned by day on "at" so that a store's last
-- 24 hours is read from one or two small partitions and retention drops whole days
-- (jobs/tasks/prune_request_log.ts). The partitions live in their own schema, "request_log", so the
-- data model (public) holds the parent table only. No foreign key to "Store": a log row outlives
-- nothing for long (REQUEST_LOG_RETENTION_DAYS) and writing it must never wait on a row lock.
CREATE TABLE "RequestLogEntry" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "storeId" TEXT NOT NULL,
    "keyId" TEXT,
    "staffUserId" TEXT,
    "door" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "errorCode" TEXT,
    "durationMs" DOUBLE PRECISION NOT NULL,
    "requestId" TEXT NOT NULL,
    "clientIp" TEXT,
    "cost" INTEGER,

    CONSTRAINT "RequestLogEntry_pkey" PRIMARY KEY ("at", "id")
) PARTITION BY RANGE ("at");

CREATE INDEX "RequestLogEntry_storeId_at_id_idx" ON "RequestLogEntry"("storeId", "at" DESC, "id" DESC);
CREATE INDEX "RequestLogEntry_storeId_keyId_at_id_idx" ON "RequestLogEntry"("storeId", "keyId", "at" DESC, "id" DESC);
CREATE INDEX "RequestLogEntry_storeId_requestId_idx" ON "RequestLogEntry"("storeId", "requestId");

CREATE SCHEMA IF NOT EXISTS request_log;

-- Rows of a day with no partition yet (the prune job makes each day's ahead of time).
CREATE TABLE request_log.day_default PARTITION OF "RequestLogEntry" DEFAULT;

-- Yesterday to a week ahead; later days are made by the job.
DO $$
DECLARE d date;
BEGIN
  FOR d IN SELECT generate_series(current_date - 1, current_date + 7, interval '1 day')::date LOOP
    EXECUTE format(
      'CREATE TABLE request_log.%I PARTITION OF "RequestLogEntry" FOR VALUES FROM (%L) TO (%L)',
      'day_' || to_char(d, 'YYYYMMDD'), d::timestamp, (d + 1)::timestamp);
  END LOOP;
END $$;
