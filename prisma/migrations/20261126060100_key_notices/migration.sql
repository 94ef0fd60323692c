-- Lifecycle notices of API keys (issue 32, README "Key notices"): one row per notice sent. `subject` is
-- what it was about — the key's expiresAt (ISO 8601) for `expiring`, its usageLimit for
-- `usage_threshold` — so a key whose expiry or limit is changed later can be noticed again, and the
-- unique index makes a re-run (or a second worker) send nothing twice.
CREATE TABLE "ApiKeyNotice" (
    "id" TEXT NOT NULL DEFAULT ('kno_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "apiKeyId" TEXT NOT NULL,
    "storeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiKeyNotice_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ApiKeyNotice_kind_check" CHECK ("kind" IN ('expiring', 'usage_threshold'))
);

CREATE UNIQUE INDEX "ApiKeyNotice_apiKeyId_kind_subject_key" ON "ApiKeyNotice"("apiKeyId", "kind", "subject");

ALTER TABLE "ApiKeyNotice" ADD CONSTRAINT "ApiKeyNotice_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
