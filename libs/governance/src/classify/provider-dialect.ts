import { meaningOf, type ErrorMeaning, type Semantics } from './error-meaning.js';
import { errnoMeaning, isKnownErrno } from './errno.js';
import { grpcMeaning, normaliseGrpcCode } from './grpc-status.js';
import { httpStatusMeaning } from './http-status.js';
import { jsonRpcMeaning } from './json-rpc.js';
import { mysqlNumberMeaning, providerMeaning } from './provider-codes.js';
import { MONGODB_NUMBERS, ORACLE_NUMBERS, SQLSERVER_NUMBERS } from './provider-numbers.js';
import { CLICKHOUSE_ERRORS } from './provider-db.js';
import { AMQP_NUMBERS, amqpNameMeaning } from './provider-amqp.js';
import { LDAP_NUMBERS } from './provider-directory.js';
import { KAFKA_NUMBERS } from './provider-kafka.js';
import { sqliteNumber } from './provider-sqlite.js';
import { ftpReplyMeaning } from './ftp-reply.js';
import { smtpReplyMeaning } from './smtp-reply.js';
import { sqlStateClassMeaning, sqlStateMeaning } from './sqlstate.js';

/** The dialects whose codes are read differently; every other provider's codes are names. */
export type Dialect =
  | 'postgres'
  | 'mysql'
  | 'sqlserver'
  | 'oracle'
  | 'sqlite'
  | 'mongodb'
  | 'clickhouse'
  | 'redis'
  | 'smtp'
  | 'ftp'
  | 'kafka'
  | 'amqp'
  | 'ldap'
  | 'grpc'
  | 'http'
  | 'jsonrpc'
  | 'errno';

// Providers and protocols that speak one of those dialects (wire-compatible servers included).
const ALIASES: ReadonlyMap<string, Dialect> = new Map<string, Dialect>([
  ...(
    [
      'postgres',
      'postgresql',
      'pg',
      'psql',
      'cockroachdb',
      'cockroach',
      'redshift',
      'yugabytedb',
      'neon',
      'supabase',
      'alloydb',
      'aurora-postgresql',
      'timescaledb',
    ] as const
  ).map((p) => [p, 'postgres'] as const),
  ...(['mysql', 'mariadb', 'aurora-mysql', 'tidb', 'planetscale', 'vitess', 'percona'] as const).map(
    (p) => [p, 'mysql'] as const,
  ),
  ...(['sqlserver', 'mssql', 'sql-server', 'azure-sql', 'azuresql', 'tsql', 'synapse'] as const).map(
    (p) => [p, 'sqlserver'] as const,
  ),
  ...(['oracle', 'oracledb', 'oracle-db'] as const).map((p) => [p, 'oracle'] as const),
  // libSQL/Turso and Cloudflare D1 are SQLite underneath and report its result codes.
  ...(['sqlite', 'sqlite3', 'libsql', 'turso', 'd1', 'cloudflare-d1'] as const).map((p) => [p, 'sqlite'] as const),
  ...(['smtp', 'smtps', 'esmtp', 'lmtp', 'submission'] as const).map((p) => [p, 'smtp'] as const),
  ...(['ftp', 'ftps'] as const).map((p) => [p, 'ftp'] as const),
  ...(['kafka', 'confluent', 'msk', 'redpanda', 'event-hubs-kafka'] as const).map((p) => [p, 'kafka'] as const),
  ...(['amqp', 'amqps', 'rabbitmq', 'amqp-0-9-1'] as const).map((p) => [p, 'amqp'] as const),
  ...(['ldap', 'ldaps', 'active-directory', 'openldap'] as const).map((p) => [p, 'ldap'] as const),
  ...(['mongodb', 'mongo', 'documentdb', 'cosmosdb-mongo'] as const).map((p) => [p, 'mongodb'] as const),
  ...(['clickhouse', 'clickhouse-cloud', 'chdb'] as const).map((p) => [p, 'clickhouse'] as const),
  ...(['redis', 'valkey', 'keydb', 'elasticache', 'memorystore', 'resp'] as const).map((p) => [p, 'redis'] as const),
  ['grpc', 'grpc'],
  ['http', 'http'],
  ['https', 'http'],
  ...(['json-rpc', 'jsonrpc', 'mcp'] as const).map((p) => [p, 'jsonrpc'] as const),
  ...(['node', 'nodejs', 'os', 'posix', 'errno', 'libuv', 'fs'] as const).map((p) => [p, 'errno'] as const),
]);

export const dialectOf = (provider: string | null, protocol: string | null): Dialect | null =>
  (provider !== null ? ALIASES.get(provider.toLowerCase()) : undefined) ??
  (protocol !== null ? ALIASES.get(protocol.toLowerCase()) : undefined) ??
  null;

const INTEGER = /^-?\d+$/;
const SMTP_CODE = /^(?:([2-5]\d\d)(?:[ -]([2-5]\.\d{1,3}\.\d{1,3}))?|([2-5]\.\d{1,3}\.\d{1,3}))$/;
const ORA = /^ORA-(\d{5})$/i;

const CLICKHOUSE_NUMBERS: ReadonlyMap<number, Semantics> = new Map(CLICKHOUSE_ERRORS.map(([n, , s]) => [n, s]));

const fromNumbers = (table: ReadonlyMap<number, Semantics>, n: number, reason: string): ErrorMeaning | null => {
  const s = table.get(n);
  return s ? meaningOf(s, reason) : null;
};

const relabel = (meaning: ErrorMeaning | null, reason: string): ErrorMeaning | null =>
  meaning === null ? null : { ...meaning, reason };

/** An LDAP result code (RFC 4511 §4.1.9). */
export function ldapNumberMeaning(n: number): ErrorMeaning | null {
  const known = LDAP_NUMBERS.get(n);
  return known ? meaningOf(known[1], `ldap:${n}:${known[0]}`) : null;
}

/** A SQL Server error number, for a text holding its message template (the template names its dialect). */
export const sqlServerNumberMeaning = (n: number): ErrorMeaning | null =>
  fromNumbers(SQLSERVER_NUMBERS, n, `sqlserver:${n}`);

/** An ORA- code wherever it appears: the prefix is its own dialect. */
export function oracleMeaning(code: string): ErrorMeaning | null {
  const m = ORA.exec(code.trim());
  return m ? fromNumbers(ORACLE_NUMBERS, Number(m[1]), `oracle:ORA-${m[1]}`) : null;
}

/**
 * error.code read in the outcome's dialect. Returns null when the dialect has no entry, so the
 * generic readings (names, statuses, phrases) still apply.
 */
export function dialectCodeMeaning(dialect: Dialect | null, raw: string): ErrorMeaning | null {
  const code = raw.trim();
  if (code.length === 0) return null;
  const ora = oracleMeaning(code);
  if (ora) return ora;
  const n = INTEGER.test(code) ? Number(code) : null;
  switch (dialect) {
    case 'postgres':
      return /^[0-9A-Z]{5}$/.test(code) ? (sqlStateMeaning(code) ?? sqlStateClassMeaning(code)) : providerMeaning(code);
    case 'mysql':
      return n !== null ? mysqlNumberMeaning(n) : providerMeaning(code);
    case 'sqlserver':
      return n !== null ? fromNumbers(SQLSERVER_NUMBERS, n, `sqlserver:${n}`) : providerMeaning(code);
    case 'oracle':
      return n !== null
        ? fromNumbers(ORACLE_NUMBERS, n, `oracle:ORA-${String(n).padStart(5, '0')}`)
        : providerMeaning(code);
    case 'sqlite': {
      const known = n !== null ? sqliteNumber(n) : null;
      return known ? meaningOf(known[1], `sqlite:${known[0]}`) : providerMeaning(code);
    }
    case 'smtp': {
      // "550", "5.1.1" or both ("550 5.1.1"): an enhanced code alone implies its class's reply.
      const reply = SMTP_CODE.exec(code);
      if (!reply) return providerMeaning(code);
      const enhanced = reply[2] ?? reply[3] ?? null;
      const replyCode = reply[1] !== undefined ? Number(reply[1]) : Number(enhanced![0]) * 100;
      return smtpReplyMeaning({ code: replyCode, enhanced });
    }
    case 'ftp':
      return n !== null ? ftpReplyMeaning(n) : providerMeaning(code);
    case 'kafka': {
      const name = n !== null ? KAFKA_NUMBERS.get(n) : undefined;
      return name !== undefined ? relabel(providerMeaning(name), `kafka:${name}`) : providerMeaning(code);
    }
    case 'amqp': {
      const name = n !== null ? AMQP_NUMBERS.get(n) : undefined;
      return name !== undefined
        ? relabel(amqpNameMeaning(name), `amqp:${n}`)
        : (amqpNameMeaning(code) ?? providerMeaning(code));
    }
    case 'ldap':
      return n !== null ? ldapNumberMeaning(n) : providerMeaning(code);
    case 'mongodb':
      return n !== null ? fromNumbers(MONGODB_NUMBERS, n, `mongodb:${n}`) : providerMeaning(code);
    case 'clickhouse':
      // The JS client's ClickHouseError keeps the server's number in `code` ("202") and its name in `type`.
      return n !== null ? fromNumbers(CLICKHOUSE_NUMBERS, n, `clickhouse:${n}`) : providerMeaning(code);
    case 'redis':
      // The first word of the reply is the error prefix ("READONLY You can't write against a read only replica.").
      return providerMeaning(code.split(/\s/, 1)[0]!);
    case 'grpc': {
      const name = normaliseGrpcCode(n ?? code);
      return name ? grpcMeaning(name) : providerMeaning(code);
    }
    case 'http':
      return n !== null && n >= 100 && n <= 599 ? httpStatusMeaning(n, {}) : providerMeaning(code);
    case 'jsonrpc':
      return n !== null ? jsonRpcMeaning(n) : providerMeaning(code);
    case 'errno':
      return isKnownErrno(code) ? errnoMeaning(code) : providerMeaning(code);
    case null:
      // Without a dialect a bare number means nothing certain; a name is looked up everywhere.
      return n !== null ? null : providerMeaning(code);
    default: {
      const exhaustive: never = dialect;
      return exhaustive;
    }
  }
}
