-- The request log's primary key becomes (storeId, at, id) and takes the place of the index
-- (storeId, at DESC, id DESC): a store's newest entries are the same range of the same key read
-- backwards, and every entry written maintains one B-tree fewer (four instead of five). The old key
-- (at, id) served no read: the prune job drops whole partitions and deletes the default
-- partition's rows by time. bench/request-log-write.ts measured what each index costs a write.
ALTER TABLE "RequestLogEntry" DROP CONSTRAINT "RequestLogEntry_pkey";
ALTER TABLE "RequestLogEntry" ADD CONSTRAINT "RequestLogEntry_pkey" PRIMARY KEY ("storeId", "at", "id");
DROP INDEX "RequestLogEntry_storeId_at_id_idx";
