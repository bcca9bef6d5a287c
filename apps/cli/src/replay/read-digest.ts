import type { SqlSession } from '@tokencircuit/storage';
import { quoteSchema } from './replay-database.js';
import { StateDigest, type DigestResult } from './state-digest.js';

const PAGE = 1000;

/**
 * Every column of a failure_state row but key_id, as one JSON object: the flat columns preflight and the
 * audit filter on are compared as well as the `state` document, so an edit of either is a difference. A
 * column added later is compared without a change here. updated_at is written in UTC with microseconds,
 * whatever the session's TimeZone.
 */
const ROW_JSON = `to_jsonb(f) - 'key_id' || jsonb_build_object('updated_at',
  to_char(f.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))`;

/** The digest of one schema's failure_state rows and decision_outbox ids (purged ones included), read in pages in byte order. */
export async function readDigest(session: SqlSession, schema: string): Promise<DigestResult> {
  const digest = new StateDigest();
  const at = quoteSchema(schema);
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: { key_id: string; row: Record<string, unknown> }[] } = await session.query(
      `SELECT f.key_id, ${ROW_JSON} AS row FROM ${at}.failure_state f
        WHERE $1::text IS NULL OR f.key_id COLLATE "C" > $1::text COLLATE "C"
        ORDER BY f.key_id COLLATE "C" LIMIT ${PAGE}`,
      [after],
    );
    for (const row of rows) digest.addState(row.key_id, row.row);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.key_id;
  }
  after = null;
  for (;;) {
    const { rows }: { rows: { id: string }[] } = await session.query(
      // Ids the decision service's retention purged still count: the transition was decided.
      `SELECT id FROM (SELECT id FROM ${at}.decision_outbox UNION ALL SELECT id FROM ${at}.decision_outbox_purged) AS o
        WHERE $1::text IS NULL OR id COLLATE "C" > $1::text COLLATE "C"
        ORDER BY id COLLATE "C" LIMIT ${PAGE}`,
      [after],
    );
    for (const row of rows) digest.addOutboxId(row.id);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
  }
  return digest.finish();
}

/** The stored rows (every column but key_id) of the given keys, to name the columns that differ. */
export async function readStateRows(
  session: SqlSession,
  schema: string,
  keyIds: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (keyIds.length === 0) return new Map();
  const { rows }: { rows: { key_id: string; row: Record<string, unknown> }[] } = await session.query(
    `SELECT f.key_id, ${ROW_JSON} AS row FROM ${quoteSchema(schema)}.failure_state f WHERE f.key_id = ANY($1::text[])`,
    [keyIds],
  );
  return new Map(rows.map((r) => [r.key_id, r.row]));
}
