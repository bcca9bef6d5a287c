/** What the outcome says about a successful result: was it empty, how many rows. */
export interface ResultFacts {
  readonly empty: boolean | null;
  readonly rowCount: number | null;
}

/** A tool's own emptiness test; null = cannot tell. */
export type IsEmpty = (result: unknown) => boolean | null;

const rowsOf = (result: object): unknown[] | null => {
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? rows : null;
};

/**
 * Default emptiness: null, [], {} and a result set with no rows ({ rows: [] }, as node-postgres and
 * most SQL clients return) are empty. undefined says nothing (a write that returns nothing is not an
 * empty read), so it is "unknown". The backend treats an empty read as unverified, never as success.
 */
export function defaultIsEmpty(result: unknown): boolean | null {
  if (result === undefined) return null;
  if (result === null) return true;
  if (Array.isArray(result)) return result.length === 0;
  if (typeof result === 'object') {
    const rows = rowsOf(result);
    if (rows !== null) return rows.length === 0;
    return Object.keys(result).length === 0 && Object.getPrototypeOf(result) === Object.prototype;
  }
  return false;
}

function rowCountOf(result: unknown): number | null {
  if (Array.isArray(result)) return result.length;
  if (typeof result === 'object' && result !== null) {
    const rows = rowsOf(result);
    if (rows !== null) return rows.length;
    const count = (result as { rowCount?: unknown }).rowCount;
    if (typeof count === 'number' && Number.isInteger(count) && count >= 0) return count;
  }
  return null;
}

export function resultFacts(result: unknown, isEmpty: IsEmpty = defaultIsEmpty): ResultFacts {
  const empty = isEmpty(result);
  if (empty !== null && typeof empty !== 'boolean') {
    throw new TypeError(`isEmpty must return true, false or null, got ${typeof empty}`);
  }
  return { empty, rowCount: rowCountOf(result) };
}
