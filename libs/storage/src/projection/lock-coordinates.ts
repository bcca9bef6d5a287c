import { queryPreparedIfAble, type InlineStatement, type SqlSession } from '../sql-database.js';
import { sqlTextArray } from '../sql-literal.js';

/**
 * Transaction-scoped advisory locks on `lockNames`: serialises every writer touching the same
 * coordinates, in one global (sorted) order so two projectors never deadlock; row locks alone cannot
 * stop two instances from creating the same fleet key at once.
 */
export async function lockCoordinates(tx: SqlSession, lockNames: readonly string[]): Promise<void> {
  if (lockNames.length === 0) return;
  const sorted = [...new Set(lockNames)].sort();
  await queryPreparedIfAble(
    tx,
    'lock-coordinates',
    `SELECT count(pg_advisory_xact_lock(hashtextextended(name, 0)))
       FROM (SELECT name FROM unnest($1::text[]) WITH ORDINALITY AS t(name, i) ORDER BY i) AS ordered`,
    [sorted],
  );
}

/**
 * lockCoordinates written inline (null for no names), to travel with the statements that open a projector
 * transaction (transactionOpenedBy): the locks are granted before the next statement of the message starts.
 */
export function coordinateLocksStatement(lockNames: readonly string[]): InlineStatement<void> | null {
  if (lockNames.length === 0) return null;
  const sorted = [...new Set(lockNames)].sort();
  return {
    text: `SELECT count(pg_advisory_xact_lock(hashtextextended(name, 0)))
       FROM (SELECT name FROM unnest(${sqlTextArray(sorted)}) WITH ORDINALITY AS t(name, i) ORDER BY i) AS ordered`,
    read: () => undefined,
  };
}
