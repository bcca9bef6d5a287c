import type { SqlSession } from '@tokencircuit/storage';
import { quoteSchema } from './replay-database.js';
import { StateDigest, type DigestResult } from './state-digest.js';

const PAGE = 1000;

/** The digest of one schema's failure_state rows and decision_outbox ids (purged ones included), read in pages in byte order. */
export async function readDigest(session: SqlSession, schema: string): Promise<DigestResult> {
  const digest = new StateDigest();
  const at = quoteSchema(schema);
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: { key_id: string; state: unknown }[] } = await session.query(
      `SELECT key_id, state FROM ${at}.failure_state
        WHERE $1::text IS NULL OR key_id COLLATE "C" > $1::text COLLATE "C"
        ORDER BY key_id COLLATE "C" LIMIT ${PAGE}`,
      [after],
    );
    for (const row of rows) digest.addState(row.key_id, row.state);
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
