const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// Fixed texts that stand for exactly one code, printed by drivers without the code's name: SQLite's
// sqlite3_errstr texts (main.c; Python's sqlite3, Go and Rust drivers), the Kafka protocol's error
// descriptions (KafkaJS and the Java client print them as the message) and Cassandra's Unavailable text.
export const FIXED_TEXTS: ReadonlyMap<string, string> = new Map([
  ['database is locked', 'SQLITE_BUSY'],
  ['database table is locked', 'SQLITE_LOCKED'],
  ['attempt to write a readonly database', 'SQLITE_READONLY'],
  ['database disk image is malformed', 'SQLITE_CORRUPT'],
  ['database or disk is full', 'SQLITE_FULL'],
  ['unable to open database file', 'SQLITE_CANTOPEN'],
  ['file is not a database', 'SQLITE_NOTADB'],
  ['disk I/O error', 'SQLITE_IOERR'],
  ['This server is not the leader for that topic-partition', 'NOT_LEADER_OR_FOLLOWER'],
  ['This server does not host this topic-partition', 'UNKNOWN_TOPIC_OR_PARTITION'],
  [
    'There is no leader for this topic-partition as we are in the middle of a leadership election',
    'LEADER_NOT_AVAILABLE',
  ],
  ['The request included a message larger than the max message size the server will accept', 'MESSAGE_TOO_LARGE'],
  ['Messages are rejected since there are fewer in-sync replicas than required', 'NOT_ENOUGH_REPLICAS'],
  ['Messages are written to the log, but to fewer in-sync replicas than required', 'NOT_ENOUGH_REPLICAS_AFTER_APPEND'],
  ['Topic with this name already exists', 'TOPIC_ALREADY_EXISTS'],
  // Cassandra's Unavailable error as the server words it and as the DataStax Java driver does: the coordinator had
  // too few live replicas for the consistency level and wrote to none.
  ['Cannot achieve consistency level', 'UnavailableException'],
  ['Not enough replicas available for query at consistency', 'UnavailableException'],
]);
// PostgreSQL's own wording for the SQLSTATEs it stands for (the server's message templates, unchanged across
// versions), for drivers and tools that print the message without the code: psql's default verbosity, an ORM's
// re-thrown error, an MCP tool's text. Read as that SQLSTATE, so the text means what the code means.
export const POSTGRES_TEXTS: ReadonlyMap<string, string> = new Map([
  ['violates not-null constraint', '23502'],
  ['violates foreign key constraint', '23503'],
  ['violates unique constraint', '23505'],
  ['violates check constraint', '23514'],
  ['violates exclusion constraint', '23P01'],
  ['violates row-level security policy', '42501'],
  ['invalid input syntax for type', '22P02'],
  ['value too long for type', '22001'],
]);
export const POSTGRES_TEXT = new RegExp(`\\b(${[...POSTGRES_TEXTS.keys()].map(escapeRegExp).join('|')})\\b`);
// Every PostgreSQL text above holds one of these.
export const POSTGRES_TEXT_WORDS = ['violates ', ' for type'];

// SQL Server's message templates (the database engine's error catalogue, sys.messages) for the numbers they stand
// for, as drivers, ORMs and MCP tools print them without the number: read as that number, so the text means what the
// number means (SQLSERVER_NUMBERS). Each is the template's fixed lead-in up to its first placeholder; the longer
// 2628 wording comes before 8152, whose whole text is its prefix.
export const SQLSERVER_TEMPLATES: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bInvalid object name '/, 208],
  [/\bInvalid column name '/, 207],
  [/\bLogin failed for user '/, 18456],
  [/\bCannot insert the value NULL into column '/, 515],
  [/\bpermission was denied on the object '/, 229],
  [/\bIncorrect syntax near\b/, 102],
  [/\bString or binary data would be truncated in table '/, 2628],
  [/\bString or binary data would be truncated\b/, 8152],
];
// Every SQL Server template above holds one of these.
export const SQLSERVER_TEMPLATE_WORDS = [
  'Invalid ',
  'Login failed',
  'the value NULL',
  'permission was denied',
  'Incorrect syntax',
  'would be truncated',
];

// MySQL's message templates (the server error reference) for the error numbers they stand for, printed without the
// "ERROR 1452 (23000):" lead-in by ORMs and tools: read as that number (MYSQL_ERRORS).
export const MYSQL_TEMPLATES: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bCannot add or update a child row: a foreign key constraint fails\b/, 1452],
  [/\bCannot delete or update a parent row: a foreign key constraint fails\b/, 1451],
  [/\bColumn '[^'\n]{1,64}' cannot be null\b/, 1048],
];
// Every MySQL template above holds one of these.
export const MYSQL_TEMPLATE_WORDS = ['a foreign key constraint fails', "' cannot be null"];

// strerror(3) texts as Python ("[Errno 17] File exists") and Go ("mkdir /data: file exists") print them,
// for the errno codes no phrase covers; only after those formats' lead-ins, never in running prose.
export const STRERROR: ReadonlyMap<string, string> = new Map([
  ['file exists', 'EEXIST'],
  ['is a directory', 'EISDIR'],
  ['not a directory', 'ENOTDIR'],
  ['directory not empty', 'ENOTEMPTY'],
  ['device or resource busy', 'EBUSY'],
  ['text file busy', 'ETXTBSY'],
  ['read-only file system', 'EROFS'],
  ['too many open files', 'EMFILE'],
  ['resource temporarily unavailable', 'EAGAIN'],
  ['no space left on device', 'ENOSPC'],
  ['operation not permitted', 'EPERM'],
  ['network is unreachable', 'ENETUNREACH'],
]);
export const STRERROR_TEXT = new RegExp(
  `(?:\\[Errno \\d+\\] |: )(${[...STRERROR.keys()].join('|')})(?=$|[\\s:,.;'")\\]])`,
  'i',
);
export const FIXED_TEXT = new RegExp(`\\b(${[...FIXED_TEXTS.keys()].map(escapeRegExp).join('|')})\\b`);
// Every fixed text holds one of these words: one indexOf each before the alternation runs.
export const FIXED_TEXT_WORDS = [
  'database',
  'disk I/O',
  'topic-partition',
  'in-sync replicas',
  'message size',
  'Topic with',
  'consistency',
];
