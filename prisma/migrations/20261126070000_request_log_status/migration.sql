-- A status class filter (4xx, 5xx) of one store reads the few matching rows in time order from this
-- index instead of walking the store's whole day in (storeId, at): the 5xx filter on 10,000,000 rows
-- took 153 ms without it (bench/request-log-query.ts).
CREATE INDEX "RequestLogEntry_storeId_status_at_idx" ON "RequestLogEntry"("storeId", "status", "at" DESC);
