import { invariant, missingResource, permission, transient, validation, type Semantics } from './error-meaning.js';

const dup = { duplicateOnRetry: true } as const;
const notSent = (s: Semantics): Semantics => ({ ...s, effect: 'not_sent' });

/**
 * Numeric codes only mean something in their own dialect (1205 is a SQL Server deadlock and a MySQL
 * lock-wait timeout; 11000 is MongoDB's duplicate key), so these tables are read only when the
 * outcome names the provider, or when the code carries its dialect's own prefix (ORA-…).
 */

/**
 * SQL Server / Azure SQL error numbers.
 * https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/database-engine-events-and-errors
 * https://learn.microsoft.com/en-us/azure/azure-sql/database/troubleshoot-common-errors-issues (transient list)
 */
export const SQLSERVER_NUMBERS: ReadonlyMap<number, Semantics> = new Map<number, Semantics>([
  [2627, invariant('rejected', dup)], // Violation of PRIMARY KEY / UNIQUE KEY constraint
  [2601, invariant('rejected', dup)], // Cannot insert duplicate key row … with unique index
  [2714, invariant('rejected', dup)], // There is already an object named …
  [1801, invariant('rejected', dup)], // Database already exists
  [547, invariant()], // The statement conflicted with the FOREIGN KEY / CHECK constraint
  [515, invariant()], // Cannot insert the value NULL into column
  [1205, transient('rolled_back')], // chosen as the deadlock victim. Rerun the transaction.
  [3960, transient('rolled_back', { concurrency: true })], // snapshot isolation update conflict
  [3930, transient('rolled_back')], // the current transaction cannot be committed (doomed)
  [1222, transient('rejected')], // Lock request time out period exceeded
  [208, missingResource()], // Invalid object name
  [207, missingResource()], // Invalid column name
  [2812, missingResource()], // Could not find stored procedure
  [911, missingResource()], // Database does not exist
  [18456, permission()], // Login failed for user
  [229, permission()], // The permission was denied on the object
  [230, permission()],
  [262, permission()], // permission denied in database
  [300, permission()],
  [916, permission()], // server principal is not able to access the database
  [102, validation()], // Incorrect syntax near
  [156, validation()], // Incorrect syntax near the keyword
  [8152, validation()], // String or binary data would be truncated
  [2628, validation()],
  [245, validation()], // Conversion failed
  [8114, validation()], // Error converting data type
  [241, validation()],
  [8134, validation()], // Divide by zero
  [213, validation()], // Column name or number of supplied values does not match
  // Read-only secondary or database (after a failover the connection reaches a readable replica).
  [3906, transient('rejected')],
  [976, transient('rejected')],
  // Azure SQL's documented transient errors: reconfiguration, throttling, busy service.
  [4060, transient('rejected')],
  [40613, transient('rejected')],
  [40501, transient('rejected')],
  [40197, transient('indeterminate')],
  [10928, transient('rejected')],
  [10929, transient('rejected')],
  [49918, transient('rejected')],
  [49919, transient('rejected')],
  [49920, transient('rejected')],
  [4221, transient('rejected')],
  [40143, transient('indeterminate')],
  [40540, transient('indeterminate')],
  [8645, transient('rejected')], // timeout waiting for memory resources
  [-2, transient('indeterminate')], // client timeout expired
  [10053, transient('indeterminate')],
  [10054, transient('indeterminate')],
  [10060, notSent(transient('rejected'))],
  [53, notSent(transient('rejected'))], // network path not found / server not reachable
]);

/** Oracle Database ORA- codes. https://docs.oracle.com/en/error-help/db/ */
export const ORACLE_NUMBERS: ReadonlyMap<number, Semantics> = new Map<number, Semantics>([
  [1, invariant('rejected', dup)], // unique constraint violated
  [955, invariant('rejected', dup)], // name is already used by an existing object
  [1400, invariant()], // cannot insert NULL
  [2290, invariant()], // check constraint violated
  [2291, invariant()], // integrity constraint violated - parent key not found
  [2292, invariant()], // integrity constraint violated - child record found
  [60, transient('rolled_back')], // deadlock detected while waiting for resource (statement rolled back)
  [8177, transient('rolled_back', { concurrency: true })], // can't serialize access for this transaction
  [54, transient('rejected')], // resource busy and acquire with NOWAIT specified
  [2049, transient('rolled_back')], // timeout: distributed transaction waiting for lock
  [1555, transient('rejected')], // snapshot too old
  [4068, transient('rejected')], // existing state of packages has been discarded
  [4031, transient('rejected')], // unable to allocate shared memory
  [18, transient('rejected')], // maximum number of sessions exceeded
  [20, transient('rejected')], // maximum number of processes exceeded
  [16000, transient('rejected')], // database or pluggable database open for read-only access
  [942, missingResource()], // table or view does not exist
  [904, missingResource()], // invalid identifier
  [4043, missingResource()], // object does not exist
  [1403, missingResource()], // no data found
  [1017, permission()], // invalid credential or not authorized; logon denied
  [1031, permission()], // insufficient privileges
  [1045, permission()], // user lacks CREATE SESSION privilege
  [28000, permission()], // the account is locked
  [28001, permission()], // the password has expired
  [900, validation()], // invalid SQL statement
  [933, validation()], // SQL command not properly ended
  [936, validation()], // missing expression
  [907, validation()], // missing right parenthesis
  [1722, validation()], // invalid number
  [1858, validation()],
  [1861, validation()], // literal does not match format string
  [12899, validation()], // value too large for column
  [1438, validation()], // value larger than specified precision
  [6550, validation()], // PL/SQL compilation error
  [1410, validation()], // invalid ROWID
  [12541, notSent(transient('rejected'))], // TNS: no listener
  [12514, notSent(transient('rejected'))], // listener does not currently know of service
  [12170, notSent(transient('rejected'))], // TNS: connect timeout occurred
  [12543, notSent(transient('rejected'))], // TNS: destination host unreachable
  [1033, notSent(transient('rejected'))], // initialization or shutdown in progress
  [12154, notSent(missingResource())], // could not resolve the connect identifier
  [3113, transient('indeterminate')], // end-of-file on communication channel
  [3114, transient('indeterminate')], // not connected to ORACLE
  [3135, transient('indeterminate')], // connection lost contact
  [1013, transient('indeterminate')], // user requested cancel of current operation
  [1089, transient('indeterminate')], // immediate shutdown or close in progress
  [25408, transient('indeterminate')], // can not safely replay call
]);

/**
 * MongoDB server error codes (by number; the code names are in the provider name table).
 * https://www.mongodb.com/docs/manual/reference/error-codes/
 */
export const MONGODB_CODES: ReadonlyArray<readonly [number, string, Semantics]> = [
  [11000, 'DuplicateKey', invariant('rejected', dup)],
  [11001, 'DuplicateKeyValue', invariant('rejected', dup)],
  [48, 'NamespaceExists', invariant('rejected', dup)],
  [85, 'IndexOptionsConflict', invariant()],
  [86, 'IndexKeySpecsConflict', invariant()],
  [112, 'WriteConflict', transient('rolled_back', { concurrency: true })],
  [251, 'NoSuchTransaction', transient('rolled_back')],
  [244, 'TransactionAborted', transient('rolled_back')],
  [13, 'Unauthorized', permission()],
  [18, 'AuthenticationFailed', permission()],
  [26, 'NamespaceNotFound', missingResource()],
  [43, 'CursorNotFound', missingResource()],
  [27, 'IndexNotFound', missingResource()],
  [2, 'BadValue', validation()],
  [9, 'FailedToParse', validation()],
  [14, 'TypeMismatch', validation()],
  [59, 'CommandNotFound', validation()],
  [121, 'DocumentValidationFailure', validation()],
  [100, 'UnsatisfiableWriteConcern', validation()],
  [50, 'MaxTimeMSExpired', transient('indeterminate')],
  [262, 'ExceededTimeLimit', transient('indeterminate')],
  [89, 'NetworkTimeout', transient('indeterminate')],
  [9001, 'SocketException', transient('indeterminate')],
  [64, 'WriteConcernFailed', transient('indeterminate')], // applied on the primary, concern not met
  [91, 'ShutdownInProgress', transient('indeterminate')],
  [11600, 'InterruptedAtShutdown', transient('indeterminate')],
  [11602, 'InterruptedDueToReplStateChange', transient('indeterminate')],
  // Retryable write errors: a write reached a node that is no longer (or not) the primary.
  [189, 'PrimarySteppedDown', transient('rejected')],
  [10107, 'NotWritablePrimary', transient('rejected')],
  [13435, 'NotPrimaryNoSecondaryOk', transient('rejected')],
  [13436, 'NotPrimaryOrSecondary', transient('rejected')],
  [6, 'HostUnreachable', transient('indeterminate')],
  [7, 'HostNotFound', notSent(transient('rejected'))],
  [133, 'FailedToSatisfyReadPreference', notSent(transient('rejected'))],
  [16500, 'RequestRateTooLarge', transient('rejected')], // Azure Cosmos DB for MongoDB: 429
];

export const MONGODB_NUMBERS: ReadonlyMap<number, Semantics> = new Map(MONGODB_CODES.map(([n, , s]) => [n, s]));

/** MongoDB code names (err.codeName), for the shared provider name table. */
export const MONGODB_NAMES = {
  provider: 'mongodb',
  source: 'https://www.mongodb.com/docs/manual/reference/error-codes/',
  entries: MONGODB_CODES.map(([, name, s]) => [s, [name]] as const),
};
