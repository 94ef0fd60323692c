import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';

/** A pg pool or client: the hot path of the pipeline runs plain single statements, no ORM round trips. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  query<R extends QueryResultRow = QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>>;
}

/**
 * The pipeline's statements as named prepared statements: each connection parses and plans one
 * once instead of on every delivery (their CTEs cost more to plan than to run).
 */
export const prepared =
  (name: string, text: string) =>
  (values: unknown[]): QueryConfig => ({
    name,
    text,
    values,
  });

/**
 * The pipeline's statements commit without waiting for the WAL flush: each is followed by
 * graphile-worker's synchronously committed complete_job, whose flush covers it. A PostgreSQL crash
 * in between loses at most an uncompleted job's work, which then runs again (at-least-once delivery).
 * Spares one fsync per statement, the main cost of the pipeline.
 */
export const ASYNC_COMMIT_SQL = `SELECT set_config('synchronous_commit', 'off', true) AS async_commit`;
