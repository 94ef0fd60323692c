-- Indexes that match the product list's orders (issue 33, README "Prepared statements and the count"):
-- every sort the list offers reads its page off an index range (ORDER BY <field> <dir>, id <dir>, the
-- index read backward for desc) instead of sorting the store's products. The status filter with the
-- default sort (a storefront's "active, newest first") gets its own, which also serves the status filter
-- alone, so the (storeId, status) index goes.
DROP INDEX "Product_storeId_status_idx";

CREATE INDEX "Product_storeId_status_createdAt_id_idx" ON "Product"("storeId", "status", "createdAt", "id");

CREATE INDEX "Product_storeId_stock_id_idx" ON "Product"("storeId", "stock", "id");
