-- The request log is partitioned by hour, and an hour's partition is written with its primary key
-- (storeId, at, id) alone: the three secondary indexes are built on it once its hour has ended, in
-- one sorted pass each (src/request-log/partitions.ts sealPartitions, run by the worker's
-- request_log_partitions job). Each entry written then maintains one B-tree instead of four, which
-- is most of what the log cost a request (bench/BASELINE.md, "The request log's cost"). The parent
-- keeps no secondary index: PostgreSQL gives every new partition each index of its parent, even one
-- made ON ONLY the parent, so the indexes are each partition's own.
DROP INDEX "RequestLogEntry_storeId_keyId_at_id_idx";
DROP INDEX "RequestLogEntry_storeId_requestId_idx";
DROP INDEX "RequestLogEntry_storeId_status_at_idx";

-- The day partitions that hold entries keep them, indexed as a sealed hour is (until retention drops
-- them); the empty ones (the coming days', and all of them on a new database) make room for hours.
DO $$
DECLARE
  part text;
  has_rows boolean;
BEGIN
  FOR part IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = '"RequestLogEntry"'::regclass LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM request_log.%I)', part) INTO has_rows;
    IF has_rows OR part = 'day_default' THEN
      EXECUTE format('CREATE INDEX %I ON request_log.%I ("storeId", "keyId", "at" DESC, "id" DESC)', part || '_key', part);
      EXECUTE format('CREATE INDEX %I ON request_log.%I ("storeId", "requestId")', part || '_request_id', part);
      EXECUTE format('CREATE INDEX %I ON request_log.%I ("storeId", "status", "at" DESC)', part || '_status', part);
    ELSE
      EXECUTE format('DROP TABLE request_log.%I', part);
    END IF;
  END LOOP;
END $$;

-- The last hour to two days ahead (the job makes the later ones); an hour a kept day covers is skipped.
DO $$
DECLARE
  hour timestamp;
BEGIN
  FOR hour IN SELECT generate_series(date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '1 hour',
                                     date_trunc('hour', now() AT TIME ZONE 'UTC') + interval '48 hours',
                                     interval '1 hour') LOOP
    BEGIN
      EXECUTE format('CREATE TABLE request_log.%I PARTITION OF "RequestLogEntry" FOR VALUES FROM (%L) TO (%L)',
                     'hour_' || to_char(hour, 'YYYYMMDDHH24'), hour, hour + interval '1 hour');
    EXCEPTION WHEN invalid_object_definition OR check_violation THEN
      NULL; -- a kept day partition covers the hour, or the default partition holds rows of it
    END;
  END LOOP;
END $$;
