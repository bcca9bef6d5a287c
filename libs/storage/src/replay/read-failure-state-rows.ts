import type { SqlSession } from '../sql-database.js';
import { FAILURE_STATE_ROW_JSON } from './failure-state-row-json.js';
import { quoteSchema } from './quote-schema.js';

/** The failure_state rows of `schema` with these key ids, keyed by key id; ids without a row are absent. */
export async function readFailureStateRows(
  session: SqlSession,
  schema: string,
  keyIds: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (keyIds.length === 0) return new Map();
  const { rows } = await session.query<{ key_id: string; row: Record<string, unknown> }>(
    `SELECT f.key_id, ${FAILURE_STATE_ROW_JSON} AS row FROM ${quoteSchema(schema)}.failure_state f
      WHERE f.key_id = ANY($1::text[])`,
    [keyIds],
  );
  return new Map(rows.map((r) => [r.key_id, r.row]));
}
