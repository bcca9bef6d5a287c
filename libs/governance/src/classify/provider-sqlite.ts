import { invariant, missingResource, permission, transient, validation, type Semantics } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

/**
 * SQLite result codes (https://www.sqlite.org/rescode.html), primary and extended, as the drivers
 * report them: better-sqlite3 and node-sqlite3 put the name in err.code ("SQLITE_BUSY",
 * "SQLITE_CONSTRAINT_UNIQUE") and node-sqlite3 at the head of the message ("SQLITE_BUSY: database is
 * locked"); node:sqlite and C callers give the number (err.errcode 5). Consistent with the PostgreSQL
 * mapping: a constraint is an invariant (a unique one may be our own earlier insert), a missing file or
 * table is discovered, and a statement refused for concurrent activity did not run.
 */
const CODES: ReadonlyArray<readonly [number, string, Semantics]> = [
  // SQLITE_ERROR: "SQL error or missing database" — a catch-all the message refines ("no such table").
  [1, 'SQLITE_ERROR', validation({ generic: true })],
  [2, 'SQLITE_INTERNAL', transient('rolled_back', { generic: true })],
  [3, 'SQLITE_PERM', permission()],
  [4, 'SQLITE_ABORT', transient('rolled_back')],
  [516, 'SQLITE_ABORT_ROLLBACK', transient('rolled_back')],
  // Concurrent activity: the statement could not take its lock and did nothing; retry after a pause.
  [5, 'SQLITE_BUSY', transient('rejected')],
  [261, 'SQLITE_BUSY_RECOVERY', transient('rejected')],
  [517, 'SQLITE_BUSY_SNAPSHOT', transient('rolled_back', { concurrency: true })],
  [773, 'SQLITE_BUSY_TIMEOUT', transient('rejected')],
  [6, 'SQLITE_LOCKED', transient('rejected')],
  [262, 'SQLITE_LOCKED_SHAREDCACHE', transient('rejected')],
  [518, 'SQLITE_LOCKED_VTAB', transient('rejected')],
  [7, 'SQLITE_NOMEM', transient('rolled_back')],
  // A write to a database opened read-only or whose file the process may not write.
  [8, 'SQLITE_READONLY', permission()],
  [264, 'SQLITE_READONLY_RECOVERY', transient('rejected')],
  [520, 'SQLITE_READONLY_CANTLOCK', transient('rejected')],
  [776, 'SQLITE_READONLY_ROLLBACK', transient('rejected')],
  [1032, 'SQLITE_READONLY_DBMOVED', invariant()],
  [1288, 'SQLITE_READONLY_CANTINIT', transient('rejected')],
  [1544, 'SQLITE_READONLY_DIRECTORY', permission()],
  // sqlite3_interrupt(): the statement (and an explicit transaction around it) is rolled back.
  [9, 'SQLITE_INTERRUPT', transient('rolled_back')],
  // The operating system reported an I/O error mid-operation: whether a commit reached the disk is unknown.
  [10, 'SQLITE_IOERR', transient('indeterminate')],
  [11, 'SQLITE_CORRUPT', invariant()],
  [267, 'SQLITE_CORRUPT_VTAB', invariant()],
  [523, 'SQLITE_CORRUPT_SEQUENCE', invariant()],
  [779, 'SQLITE_CORRUPT_INDEX', invariant()],
  [12, 'SQLITE_NOTFOUND', validation({ generic: true })],
  // The disk or the database's page limit is full; the statement was rolled back.
  [13, 'SQLITE_FULL', transient('rolled_back')],
  [14, 'SQLITE_CANTOPEN', { ...missingResource(), effect: 'not_sent' }],
  [270, 'SQLITE_CANTOPEN_NOTEMPDIR', { ...missingResource(), effect: 'not_sent' }],
  [526, 'SQLITE_CANTOPEN_ISDIR', { ...validation(), effect: 'not_sent' }],
  [782, 'SQLITE_CANTOPEN_FULLPATH', { ...missingResource(), effect: 'not_sent' }],
  [15, 'SQLITE_PROTOCOL', transient('rejected')],
  // The schema changed since the statement was prepared: prepare it again and rerun.
  [17, 'SQLITE_SCHEMA', transient('rejected')],
  [18, 'SQLITE_TOOBIG', validation()],
  [19, 'SQLITE_CONSTRAINT', invariant('rejected', { generic: true })],
  [275, 'SQLITE_CONSTRAINT_CHECK', invariant()],
  [531, 'SQLITE_CONSTRAINT_COMMITHOOK', invariant()],
  [787, 'SQLITE_CONSTRAINT_FOREIGNKEY', invariant()],
  [1043, 'SQLITE_CONSTRAINT_FUNCTION', invariant()],
  [1299, 'SQLITE_CONSTRAINT_NOTNULL', invariant()],
  [1555, 'SQLITE_CONSTRAINT_PRIMARYKEY', invariant('rejected', { duplicateOnRetry: true })],
  [1811, 'SQLITE_CONSTRAINT_TRIGGER', invariant()],
  [2067, 'SQLITE_CONSTRAINT_UNIQUE', invariant('rejected', { duplicateOnRetry: true })],
  [2323, 'SQLITE_CONSTRAINT_ROWID', invariant('rejected', { duplicateOnRetry: true })],
  [3091, 'SQLITE_CONSTRAINT_DATATYPE', validation()],
  [20, 'SQLITE_MISMATCH', validation()],
  [21, 'SQLITE_MISUSE', validation()],
  [22, 'SQLITE_NOLFS', validation()],
  [23, 'SQLITE_AUTH', permission()],
  [25, 'SQLITE_RANGE', validation()],
  // The file at that path is not a database (or is encrypted with another key): a person must look.
  [26, 'SQLITE_NOTADB', invariant('not_sent')],
];

/** The extended IOERR codes (266 and up, one per failing system call) all mean what SQLITE_IOERR means. */
const IOERR_BASE = 10;

const BY_NUMBER: ReadonlyMap<number, readonly [string, Semantics]> = new Map(
  CODES.map(([n, name, semantics]) => [n, [name, semantics] as const]),
);

/** A SQLite result code by number (err.errcode), with its name for the reason; extended codes fall back to their primary. */
export function sqliteNumber(n: number): readonly [string, Semantics] | null {
  const exact = BY_NUMBER.get(n);
  if (exact) return exact;
  const primary = n & 0xff;
  if (primary === IOERR_BASE) return [`SQLITE_IOERR(${n})`, BY_NUMBER.get(IOERR_BASE)![1]];
  const base = BY_NUMBER.get(primary);
  return base && n > 0xff ? [`${base[0]}(${n})`, base[1]] : null;
}

// The extended I/O error names, one per failing system call (rescode.html, "Extended Result Code List").
const IOERR_NAMES = [
  'READ',
  'SHORT_READ',
  'WRITE',
  'FSYNC',
  'DIR_FSYNC',
  'TRUNCATE',
  'FSTAT',
  'UNLOCK',
  'RDLOCK',
  'DELETE',
  'NOMEM',
  'ACCESS',
  'CHECKRESERVEDLOCK',
  'LOCK',
  'CLOSE',
  'SHMOPEN',
  'SHMSIZE',
  'SHMLOCK',
  'SHMMAP',
  'SEEK',
  'DELETE_NOENT',
  'MMAP',
  'GETTEMPPATH',
  'CONVPATH',
  'VNODE',
  'AUTH',
  'BEGIN_ATOMIC',
  'COMMIT_ATOMIC',
  'ROLLBACK_ATOMIC',
  'DATA',
  'CORRUPTFS',
  'IN_PAGE',
].map((suffix) => `SQLITE_IOERR_${suffix}`);

/** The names, for the provider table: "SQLITE_" makes them self-identifying in any dialect. */
export const SQLITE: ProviderGroup = {
  provider: 'sqlite',
  source: 'https://www.sqlite.org/rescode.html',
  entries: [
    ...CODES.map(([, name, semantics]) => [semantics, [name]] as const),
    [BY_NUMBER.get(IOERR_BASE)![1], IOERR_NAMES],
  ],
};
