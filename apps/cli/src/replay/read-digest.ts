import { readDecidedOutboxIds, readFailureStatePage, type SqlSession } from '@tokencircuit/storage';
import { StateDigest, type DigestResult } from './state-digest.js';

const PAGE = 1000;

/** The digest of one schema's failure_state rows and decision_outbox ids (purged ones included), read in pages in byte order. */
export async function readDigest(session: SqlSession, schema: string): Promise<DigestResult> {
  const digest = new StateDigest();
  let after: string | null = null;
  for (;;) {
    const rows = await readFailureStatePage(session, { schema, after, limit: PAGE });
    for (const row of rows) digest.addState(row.keyId, row.row);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.keyId;
  }
  after = null;
  for (;;) {
    const ids = await readDecidedOutboxIds(session, { schema, after, limit: PAGE });
    for (const id of ids) digest.addOutboxId(id);
    if (ids.length < PAGE) break;
    after = ids[ids.length - 1]!;
  }
  return digest.finish();
}
