import type pg from 'pg';

/**
 * WAL a drain wrote, by table (heap, indexes, TOAST), from pg_walinspect (PostgreSQL 15+, superuser or
 * pg_read_server_files): each record counted whole under the relation of its first block reference.
 * Records of other databases of the shared server are counted apart, so a busy neighbour shows instead of
 * inflating a table. null when the extension cannot be created or the range is no longer on disk.
 */
export interface WalShare {
  readonly table: string;
  readonly part: 'heap' | 'indexes' | 'toast' | 'other';
  readonly bytes: number;
}

export async function walByTable(pool: pg.Pool, from: string, to: string): Promise<WalShare[] | null> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  } catch {
    return null;
  }
  // The range can be recycled already when the server wrote more than max_wal_size since (a busy neighbour).
  const result = await pool
    .query<{ table: string; part: WalShare['part']; bytes: string }>(
      `WITH records AS (
       SELECT regexp_match(block_ref, 'rel (\\d+)/(\\d+)/(\\d+)') AS m, record_length
         FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)),
     by_node AS (
       SELECT m[1]::oid AS spc, m[2]::oid AS dbid, m[3]::oid AS node, sum(record_length)::bigint AS bytes
         FROM records GROUP BY 1, 2, 3),
     resolved AS (
       SELECT b.*, CASE WHEN b.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                        THEN pg_filenode_relation(CASE WHEN b.spc = 1663 THEN 0 ELSE b.spc END, b.node) END AS rel
         FROM by_node b)
     SELECT CASE WHEN r.node IS NULL THEN '(no relation: commits, …)'
                 WHEN r.dbid <> (SELECT oid FROM pg_database WHERE datname = current_database()) THEN '(other databases)'
                 WHEN r.rel IS NULL THEN '(unresolved)'
                 ELSE coalesce(owner.relname, c.relname) END AS table,
            CASE WHEN c.relkind = 'i' AND toast_owner.oid IS NOT NULL THEN 'toast'
                 WHEN c.relkind = 'i' THEN 'indexes' WHEN c.relkind = 't' THEN 'toast'
                 WHEN c.relkind IN ('r', 'p') THEN 'heap' ELSE 'other' END AS part,
            sum(r.bytes)::text AS bytes
       FROM resolved r
       LEFT JOIN pg_class c ON c.oid = r.rel
       LEFT JOIN pg_index i ON i.indexrelid = c.oid
       LEFT JOIN pg_class toast_owner ON toast_owner.reltoastrelid IN (c.oid, i.indrelid)
       LEFT JOIN pg_class indexed ON indexed.oid = i.indrelid AND toast_owner.oid IS NULL
       LEFT JOIN LATERAL (SELECT coalesce(toast_owner.relname, indexed.relname) AS relname) owner ON true
      GROUP BY 1, 2 ORDER BY sum(r.bytes) DESC`,
      [from, to],
    )
    .catch(() => null);
  if (result === null) return null;
  return result.rows.map((r) => ({ table: r.table, part: r.part, bytes: Number(r.bytes) }));
}

/** "agent_events 1,440 (heap 1,121, indexes 319) · …" per event, largest first. */
export function walByTableLine(shares: readonly WalShare[] | null, events: number): string {
  if (shares === null) return 'WAL by table: n/a (pg_walinspect unavailable, or the WAL already recycled)';
  const tables = new Map<string, WalShare[]>();
  for (const s of shares) tables.set(s.table, [...(tables.get(s.table) ?? []), s]);
  const per = (bytes: number) => Math.round(bytes / events).toLocaleString('en-US');
  return `WAL by table, bytes/event: ${[...tables]
    .map(([table, parts]) => {
      const total = parts.reduce((sum, p) => sum + p.bytes, 0);
      const split = parts.length > 1 ? ` (${parts.map((p) => `${p.part} ${per(p.bytes)}`).join(', ')})` : '';
      return { table, total, text: `${table} ${per(total)}${split}` };
    })
    .sort((a, b) => b.total - a.total)
    .map((t) => t.text)
    .join(' · ')}`;
}
