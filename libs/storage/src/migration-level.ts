import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One migration of this build, as drizzle-kit's meta/_journal.json lists it. */
export interface JournalEntry {
  readonly tag: string;
  /** The migration's timestamp: what drizzle records in __drizzle_migrations.created_at once applied. */
  readonly when: number;
}

/**
 * Where a database stands against this build's migrations. drizzle applies, in journal order, every
 * migration whose `when` is later than the newest `created_at` it recorded, so the newest recorded
 * timestamp is the database's level: `empty` (never migrated), `behind` (some pending), `current`, or
 * `ahead` (a newer build migrated it; additive migrations keep an older build working through a rolling
 * upgrade, so that is not refused).
 */
export type MigrationLevel =
  | { readonly status: 'empty'; readonly expected: string }
  | { readonly status: 'behind'; readonly at: string; readonly expected: string; readonly pending: readonly string[] }
  | { readonly status: 'current'; readonly at: string }
  | { readonly status: 'ahead'; readonly expected: string };

export function migrationLevel(journal: readonly JournalEntry[], appliedWhens: readonly number[]): MigrationLevel {
  if (journal.length === 0) throw new TypeError('the migrations journal lists no migration');
  const expected = journal[journal.length - 1]!;
  if (appliedWhens.length === 0) return { status: 'empty', expected: expected.tag };
  const newest = Math.max(...appliedWhens);
  const pending = journal.filter((entry) => entry.when > newest).map((entry) => entry.tag);
  if (pending.length > 0) {
    const at = [...journal].reverse().find((entry) => entry.when <= newest)?.tag ?? `a migration of ${newest}`;
    return { status: 'behind', at, expected: expected.tag, pending };
  }
  if (newest > expected.when) return { status: 'ahead', expected: expected.tag };
  return { status: 'current', at: expected.tag };
}

/** The journal drizzle-kit keeps in `<migrations folder>/meta/_journal.json`, in order. */
export function readJournal(migrationsFolder: string): JournalEntry[] {
  const path = join(migrationsFolder, 'meta', '_journal.json');
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { entries?: { tag?: unknown; when?: unknown }[] };
  const entries = (parsed.entries ?? []).map((entry) => {
    if (typeof entry.tag !== 'string' || typeof entry.when !== 'number') {
      throw new TypeError(`${path}: an entry without tag or when`);
    }
    return { tag: entry.tag, when: entry.when };
  });
  return entries;
}
