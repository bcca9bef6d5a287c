import {
  concurrencyConflict,
  invariant,
  missingResource,
  permission,
  transient,
  validation,
  type Semantics,
} from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;
const notSent = (s: Semantics): Semantics => ({ ...s, effect: 'not_sent' });

/**
 * MySQL server and client error numbers with their ER_/CR_ symbols, as mysql2 reports them
 * (err.errno, err.code). Consistent with the PostgreSQL mapping: class-23 style violations are
 * invariant_violation, unknown tables/columns missing_resource, deadlocks rolled back.
 */
export const MYSQL_ERRORS: ReadonlyArray<readonly [number, string, Semantics]> = [
  [1044, 'ER_DBACCESS_DENIED_ERROR', permission()],
  [1045, 'ER_ACCESS_DENIED_ERROR', permission()],
  [1142, 'ER_TABLEACCESS_DENIED_ERROR', permission()],
  [1143, 'ER_COLUMNACCESS_DENIED_ERROR', permission()],
  [1227, 'ER_SPECIFIC_ACCESS_DENIED_ERROR', permission()],
  // --read-only / --super-read-only: a write reached a replica (after a failover), like SQLSTATE 25006.
  [1290, 'ER_OPTION_PREVENTS_STATEMENT', transient('rejected')],
  [1792, 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION', transient('rejected')],
  [1836, 'ER_READ_ONLY_MODE', transient('rejected')],
  [1020, 'ER_CHECKREAD', concurrencyConflict()], // "Record has changed since last read"
  [3572, 'ER_LOCK_NOWAIT', transient('rejected')],
  [1021, 'ER_DISK_FULL', transient('rejected')],
  [1114, 'ER_RECORD_FILE_FULL', invariant()],
  [1216, 'ER_NO_REFERENCED_ROW', invariant()],
  [1217, 'ER_ROW_IS_REFERENCED', invariant()],
  [1264, 'ER_WARN_DATA_OUT_OF_RANGE', validation()],
  [1265, 'WARN_DATA_TRUNCATED', validation()],
  [1292, 'ER_TRUNCATED_WRONG_VALUE', validation()],
  [1364, 'ER_NO_DEFAULT_FOR_FIELD', validation()],
  [1136, 'ER_WRONG_VALUE_COUNT_ON_ROW', validation()],
  [1305, 'ER_SP_DOES_NOT_EXIST', missingResource()],
  [1091, 'ER_CANT_DROP_FIELD_OR_KEY', missingResource()],
  [1050, 'ER_TABLE_EXISTS_ERROR', invariant('rejected', dup)],
  [1007, 'ER_DB_CREATE_EXISTS', invariant('rejected', dup)],
  [1060, 'ER_DUP_FIELDNAME', validation()],
  [1169, 'ER_DUP_UNIQUE', invariant('rejected', dup)],
  [1586, 'ER_DUP_ENTRY_WITH_KEY_NAME', invariant('rejected', dup)],
  [3819, 'ER_CHECK_CONSTRAINT_VIOLATED', invariant()],
  [1180, 'ER_ERROR_DURING_COMMIT', transient('indeterminate')],
  [1927, 'ER_CONNECTION_KILLED', transient('indeterminate')],
  [1053, 'ER_SERVER_SHUTDOWN', transient('indeterminate')],
  [1203, 'ER_TOO_MANY_USER_CONNECTIONS', notSent(transient('rejected'))],
  [1226, 'ER_USER_LIMIT_REACHED', transient('rejected')],
  [1698, 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR', permission()],
  [1370, 'ER_PROCACCESS_DENIED_ERROR', permission()],
  [3118, 'ER_ACCOUNT_HAS_BEEN_LOCKED', permission()],
  [1820, 'ER_MUST_CHANGE_PASSWORD', permission()],
  [1158, 'ER_NET_READ_ERROR', transient('indeterminate')],
  [1159, 'ER_NET_READ_INTERRUPTED', transient('indeterminate')],
  [1161, 'ER_NET_WRITE_INTERRUPTED', transient('indeterminate')],
  [1049, 'ER_BAD_DB_ERROR', missingResource()],
  [1146, 'ER_NO_SUCH_TABLE', missingResource()],
  [1054, 'ER_BAD_FIELD_ERROR', missingResource()],
  [1064, 'ER_PARSE_ERROR', validation()],
  [1406, 'ER_DATA_TOO_LONG', validation()],
  [1366, 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', validation()],
  [1153, 'ER_NET_PACKET_TOO_LARGE', validation()],
  [1062, 'ER_DUP_ENTRY', invariant('rejected', dup)],
  [1048, 'ER_BAD_NULL_ERROR', invariant()],
  [1451, 'ER_ROW_IS_REFERENCED_2', invariant()],
  [1452, 'ER_NO_REFERENCED_ROW_2', invariant()],
  [1213, 'ER_LOCK_DEADLOCK', transient('rolled_back')], // "try restarting transaction"
  [1205, 'ER_LOCK_WAIT_TIMEOUT', transient('rolled_back')], // the statement is rolled back
  [3024, 'ER_QUERY_TIMEOUT', transient('indeterminate')], // max_execution_time
  [1317, 'ER_QUERY_INTERRUPTED', transient('indeterminate')],
  [1040, 'ER_CON_COUNT_ERROR', notSent(transient('rejected'))],
  [2002, 'CR_CONNECTION_ERROR', notSent(transient('rejected'))],
  [2003, 'CR_CONN_HOST_ERROR', notSent(transient('rejected'))],
  [2005, 'CR_UNKNOWN_HOST', notSent(missingResource())],
  [2006, 'CR_SERVER_GONE_ERROR', transient('indeterminate')],
  [2013, 'CR_SERVER_LOST', transient('indeterminate')], // "Lost connection to MySQL server during query"
];

export const MYSQL: ProviderGroup = {
  provider: 'mysql',
  source: 'https://dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html',
  entries: MYSQL_ERRORS.map(([, symbol, s]) => [s, [symbol]] as const),
};

/** Prisma engine error codes (P1xxx connection, P2xxx query engine). */
export const PRISMA: ProviderGroup = {
  provider: 'prisma',
  source: 'https://www.prisma.io/docs/orm/reference/error-reference',
  entries: [
    [notSent(transient('rejected')), ['P1001', 'P2024']], // cannot reach the server; pool timeout
    [transient('indeterminate'), ['P1002', 'P1008', 'P1017']],
    [invariant('rejected', dup), ['P2002']],
    [invariant(), ['P2003', 'P2004', 'P2014']],
    [missingResource(), ['P2001', 'P2015', 'P2018', 'P2021', 'P2022', 'P2025']],
    [validation(), ['P2000', 'P2005', 'P2006', 'P2007', 'P2009', 'P2011', 'P2012', 'P2013', 'P2019', 'P2020']],
    [transient('rolled_back'), ['P2034']], // write conflict or deadlock: retry the transaction
  ],
};

/**
 * PEP 249 (Python DB-API) exception classes as psycopg, mysqlclient and SQLAlchemy raise them: a
 * class of error, hence generic; the message usually says which one.
 */
export const PEP249: ProviderGroup = {
  provider: 'pep249',
  source: 'https://peps.python.org/pep-0249/#exceptions',
  entries: [
    [invariant('rejected', { generic: true }), ['IntegrityError']],
    [validation({ generic: true }), ['ProgrammingError', 'DataError', 'NotSupportedError']],
    [transient('indeterminate', { generic: true }), ['OperationalError']],
  ],
};

/**
 * Elasticsearch's (and OpenSearch's) error types, the "type" of a REST error body and the "type: reason" the clients
 * print (https://www.elastic.co/guide/en/elasticsearch/reference/current/common-options.html): a version conflict is
 * optimistic concurrency (re-read, retry), a rejected execution or a tripped circuit breaker is back-pressure (429),
 * security_exception a missing or insufficient credential. search_phase_execution_exception ("all shards failed") is
 * only a wrapper: the root cause it quotes decides, so it is not listed.
 */
export const ELASTICSEARCH: ProviderGroup = {
  provider: 'elasticsearch',
  // OpenSearch kept Elasticsearch's error types when it forked.
  aliases: ['opensearch'],
  source: 'https://www.elastic.co/guide/en/elasticsearch/reference/current/common-options.html',
  entries: [
    [concurrencyConflict(), ['version_conflict_engine_exception']],
    [missingResource(), ['index_not_found_exception', 'document_missing_exception', 'resource_not_found_exception']],
    [transient('rejected'), ['es_rejected_execution_exception', 'circuit_breaking_exception']],
    [invariant('rejected', dup), ['resource_already_exists_exception']],
    [
      validation(),
      [
        'illegal_argument_exception',
        'mapper_parsing_exception',
        'document_parsing_exception',
        'strict_dynamic_mapping_exception',
        'parsing_exception',
        'x_content_parse_exception',
        'query_shard_exception',
        'action_request_validation_exception',
      ],
    ],
    [permission(), ['security_exception']],
  ],
};

/**
 * ClickHouse's error codes (src/Common/ErrorCodes.cpp; the server prints "Code: 60. DB::Exception: … (UNKNOWN_TABLE)",
 * the JS client keeps the number in `code` and the name in `type`), by number and by name. MEMORY_LIMIT_EXCEEDED
 * (241) is left out: per query it needs a smaller query, in total it clears when other queries end.
 */
export const CLICKHOUSE_ERRORS: ReadonlyArray<readonly [number, string, Semantics]> = [
  [60, 'UNKNOWN_TABLE', missingResource()],
  [81, 'UNKNOWN_DATABASE', missingResource()],
  [47, 'UNKNOWN_IDENTIFIER', missingResource()],
  [16, 'NO_SUCH_COLUMN_IN_TABLE', missingResource()],
  [46, 'UNKNOWN_FUNCTION', validation()],
  [62, 'SYNTAX_ERROR', validation()],
  [53, 'TYPE_MISMATCH', validation()],
  [57, 'TABLE_ALREADY_EXISTS', invariant('rejected', dup)],
  [82, 'DATABASE_ALREADY_EXISTS', invariant('rejected', dup)],
  [159, 'TIMEOUT_EXCEEDED', transient('indeterminate')],
  [202, 'TOO_MANY_SIMULTANEOUS_QUERIES', transient('rejected')],
  [252, 'TOO_MANY_PARTS', transient('rejected')],
  [497, 'ACCESS_DENIED', permission()],
  [516, 'AUTHENTICATION_FAILED', permission()],
  [192, 'UNKNOWN_USER', permission()],
  [193, 'WRONG_PASSWORD', permission()],
];

export const CLICKHOUSE: ProviderGroup = {
  provider: 'clickhouse',
  source: 'https://github.com/ClickHouse/ClickHouse/blob/master/src/Common/ErrorCodes.cpp',
  entries: CLICKHOUSE_ERRORS.map(([, name, s]) => [s, [name]] as const),
};
