-- A rate per endpoint (issue 31): at most this many delivery attempts start in any 1-second window; null = unlimited.
ALTER TABLE "WebhookEndpoint" ADD COLUMN "rateLimitPerSecond" INTEGER;
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_rateLimitPerSecond_range"
  CHECK ("rateLimitPerSecond" IS NULL OR "rateLimitPerSecond" BETWEEN 1 AND 1000);
