import type { SqlSession } from '../sql-database.js';
import { quoteSchema } from './quote-schema.js';

/**
 * Up to `limit` decided transitions' ids of `schema` after `after` (null: from the first) in byte order: each outbox
 * row's own and its `earlier` ones' (migration 0053). Ids the decision service's retention purged still count: the
 * transition was decided.
 */
export async function readDecidedOutboxIds(
  session: SqlSession,
  page: { readonly schema: string; readonly after: string | null; readonly limit: number },
): Promise<string[]> {
  const at = quoteSchema(page.schema);
  const { rows } = await session.query<{ id: string }>(
    `SELECT id FROM (SELECT id FROM ${at}.decision_outbox
                     UNION ALL SELECT d.key_id || '@v' || (e ->> 0) FROM ${at}.decision_outbox d, json_array_elements(d.earlier) e
                     UNION ALL SELECT id FROM ${at}.decision_outbox_purged) AS o
      WHERE $1::text IS NULL OR id COLLATE "C" > $1::text COLLATE "C"
      ORDER BY id COLLATE "C" LIMIT $2`,
    [page.after, page.limit],
  );
  return rows.map((r) => r.id);
}
