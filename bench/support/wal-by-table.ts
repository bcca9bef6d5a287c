import pg from 'pg';

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

/** WAL a drain wrote into one table, by kind of record: what an insert, an index entry or a page image costs. */
export interface WalKind {
  readonly table: string;
  /** "Heap/INSERT", "Btree/INSERT_LEAF", "Btree/SPLIT_L", …: resource manager and record type. */
  readonly kind: string;
  readonly records: number;
  /** Bytes of the records, full-page images included. */
  readonly bytes: number;
  /** Of which full-page images (the first change of a page after a checkpoint). */
  readonly fpiBytes: number;
}

/**
 * The same range as walByTable, split by record kind and by relation of this database (indexes under their
 * table, as "table.index"), so heap inserts, index inserts, page splits and full-page images show apart.
 * null when pg_walinspect is missing or the range was recycled.
 */
export async function walByKind(pool: pg.Pool, from: string, to: string): Promise<WalKind[] | null> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  } catch {
    return null;
  }
  const result = await pool
    .query<{ table: string; kind: string; records: string; bytes: string; fpi: string }>(
      `WITH records AS (
         SELECT regexp_match(block_ref, 'rel (\\d+)/(\\d+)/(\\d+)') AS m, resource_manager || '/' ||
                split_part(record_type, ' ', 1) AS kind, record_length, fpi_length
           FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)),
       mine AS (
         SELECT pg_filenode_relation(CASE WHEN m[1]::oid = 1663 THEN 0 ELSE m[1]::oid END, m[3]::oid) AS rel,
                kind, record_length, fpi_length
           FROM records WHERE m[2]::oid = (SELECT oid FROM pg_database WHERE datname = current_database()))
       SELECT coalesce(indexed.relname || '.' || c.relname, c.relname, '(unresolved)') AS table, kind,
              count(*)::text AS records, sum(record_length)::text AS bytes, sum(fpi_length)::text AS fpi
         FROM mine
         LEFT JOIN pg_class c ON c.oid = mine.rel
         LEFT JOIN pg_index i ON i.indexrelid = c.oid
         LEFT JOIN pg_class indexed ON indexed.oid = i.indrelid
        GROUP BY 1, 2 ORDER BY sum(record_length) DESC`,
      [from, to],
    )
    .catch(() => null);
  if (result === null) return null;
  return result.rows.map((r) => ({
    table: r.table,
    kind: r.kind,
    records: Number(r.records),
    bytes: Number(r.bytes),
    fpiBytes: Number(r.fpi),
  }));
}

/** One line per relation and kind above `floor` bytes/event: "agent_events Heap/INSERT 1,110 B/event (×1.00, FPI 0)". */
export function walByKindLines(kinds: readonly WalKind[] | null, events: number, floor = 5): string[] {
  if (kinds === null) return ['WAL by kind: n/a (pg_walinspect unavailable, or the WAL already recycled)'];
  const per = (n: number, digits = 0) =>
    (n / events).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return kinds
    .filter((k) => k.bytes / events >= floor)
    .map(
      (k) =>
        `${k.table} ${k.kind} ${per(k.bytes)} B/event (${per(k.records, 2)} records/event, FPI ${per(k.fpiBytes)})`,
    );
}

/**
 * Keeps the server from recycling the WAL a measured range needs until `release`: a temporary physical
 * replication slot, reserved at once, on a connection of its own (the slot goes with the connection, so a
 * crashed run holds nothing). Neighbours' DROP DATABASE forces checkpoints, after which the WAL of a run can
 * be gone before walByTable reads it. null (nothing held) when the role may not create slots.
 */
export async function holdWal(databaseUrl: string): Promise<{ release(): Promise<void> } | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const name = `tc_bench_wal_${process.pid}_${Date.now()}`;
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [name]);
    return { release: () => client.end() };
  } catch {
    await client.end().catch(() => undefined);
    return null;
  }
}
