import type { SqlSession } from '../sql-database.js';
import { FAILURE_STATE_ROW_JSON, type FailureStateRowJson } from './failure-state-row-json.js';
import { quoteSchema } from './quote-schema.js';

/**
 * Up to `limit` failure_state rows of `schema` whose key id comes after `after` (null: from the first) in byte
 * order, as ORDER BY … COLLATE "C" reads them on Postgres and PGlite alike, whatever the database's collation.
 */
export async function readFailureStatePage(
  session: SqlSession,
  page: { readonly schema: string; readonly after: string | null; readonly limit: number },
): Promise<FailureStateRowJson[]> {
  const { rows } = await session.query<{ key_id: string; row: Record<string, unknown> }>(
    `SELECT f.key_id, ${FAILURE_STATE_ROW_JSON} AS row FROM ${quoteSchema(page.schema)}.failure_state f
      WHERE $1::text IS NULL OR f.key_id COLLATE "C" > $1::text COLLATE "C"
      ORDER BY f.key_id COLLATE "C" LIMIT $2`,
    [page.after, page.limit],
  );
  return rows.map((r) => ({ keyId: r.key_id, row: r.row }));
}
