import {
  invariant,
  meaningOf,
  missingResource,
  permission,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';

/**
 * PostgreSQL SQLSTATEs with a meaning of their own (Appendix A, "PostgreSQL Error Codes"). A code not
 * listed here falls back to its two-character class below.
 */
const CODES: Readonly<Record<string, Semantics>> = {
  // Class 08: the connection failed. Before it was established nothing ran; after, a statement in
  // flight (autocommit) may have committed without the client hearing about it.
  '08001': transient('not_sent'), // sqlclient_unable_to_establish_sqlconnection
  '08004': transient('not_sent'), // sqlserver_rejected_establishment_of_sqlconnection
  '08003': transient('indeterminate'), // connection_does_not_exist
  '08006': transient('indeterminate'), // connection_failure
  '08007': transient('indeterminate'), // transaction_resolution_unknown: the name says it
  '08P01': validation(), // protocol_violation: the client spoke the protocol wrong
  '23505': invariant('rejected', { duplicateOnRetry: true }), // unique_violation: maybe our earlier insert
  // read_only_sql_transaction: a write reached a hot standby (after a failover the pool still points
  // at the old primary) or a read-only transaction; reconnecting to the primary fixes it.
  '25006': transient('rejected'),
  '25P02': transient('rolled_back'), // in_failed_sql_transaction: an earlier statement aborted the transaction
  '25P03': transient('rolled_back'), // idle_in_transaction_session_timeout: the transaction was rolled back
  '25P04': transient('rolled_back'), // transaction_timeout (PostgreSQL 17)
  '3D000': missingResource(), // invalid_catalog_name: the database does not exist
  '3F000': missingResource(), // invalid_schema_name
  // Class 40: the server rolled the transaction back and says so; retrying the whole transaction is
  // the documented remedy ("Serialization Failure Handling").
  '40001': transient('rolled_back'), // serialization_failure
  '40P01': transient('rolled_back'), // deadlock_detected
  '40002': invariant('rolled_back'), // transaction_integrity_constraint_violation
  '40003': transient('indeterminate'), // statement_completion_unknown
  '42501': permission(), // insufficient_privilege
  '42601': validation(), // syntax_error
  // undefined_*: the statement names an object that does not exist; a discovery step (list tables,
  // describe the table) resolves the identifier, so these are missing_resource, not validation.
  '42P01': missingResource(), // undefined_table
  '42703': missingResource(), // undefined_column
  '42704': missingResource(), // undefined_object
  '42883': missingResource(), // undefined_function
  '42P02': validation(), // undefined_parameter: a $n placeholder, part of the arguments
  '42701': invariant('rejected', { duplicateOnRetry: true }), // duplicate_column
  '42710': invariant('rejected', { duplicateOnRetry: true }), // duplicate_object
  '42723': invariant('rejected', { duplicateOnRetry: true }), // duplicate_function
  '42P04': invariant('rejected', { duplicateOnRetry: true }), // duplicate_database
  '42P06': invariant('rejected', { duplicateOnRetry: true }), // duplicate_schema
  '42P07': invariant('rejected', { duplicateOnRetry: true }), // duplicate_table
  '53300': transient('not_sent'), // too_many_connections: refused at connection time
  '55000': invariant(), // object_not_in_prerequisite_state
  '55006': transient('rejected'), // object_in_use
  '55P02': validation(), // cant_change_runtime_param
  '55P03': transient('rejected'), // lock_not_available (NOWAIT, lock_timeout)
  '55P04': validation(), // unsafe_new_enum_value_usage
  // Class 57. A canceled statement is rolled back by PostgreSQL, but a cancel is not proof of no
  // effect for a write: CALL/DO commit inside, sequences and dblink/FDW writes are not transactional,
  // and statement_timeout races the work. Indeterminate, so writes become ambiguous_effect.
  '57014': transient('indeterminate'), // query_canceled
  '57P01': transient('rolled_back'), // admin_shutdown: the in-progress transaction is aborted
  '57P02': transient('indeterminate'), // crash_shutdown: a commit may be durable without its ack
  '57P03': transient('not_sent'), // cannot_connect_now: the server is starting up
  '57P04': missingResource(), // database_dropped
  '57P05': transient('rolled_back'), // idle_session_timeout
  '58P01': missingResource(), // undefined_file
  '58P02': invariant('rejected', { duplicateOnRetry: true }), // duplicate_file
  HV00N: transient('not_sent'), // fdw_unable_to_establish_connection
  P0001: invariant(), // raise_exception: a business rule raised by a trigger or function
  P0002: missingResource(), // no_data_found
  P0003: validation(), // too_many_rows
  P0004: invariant(), // assert_failure
  XX000: transient('indeterminate', { generic: true }), // internal_error, the mirror of HTTP 500
  XX001: invariant('indeterminate'), // data_corrupted: retries cannot fix corruption
  XX002: invariant('indeterminate'), // index_corrupted
};

/** Class-level fallbacks (the first two characters of the SQLSTATE). */
const CLASSES: Readonly<Record<string, Semantics>> = {
  '02': missingResource(), // no_data
  '03': validation(), // sql_statement_not_yet_complete
  '08': transient('indeterminate'), // connection_exception
  '09': invariant(), // triggered_action_exception
  '0A': validation(), // feature_not_supported
  '0B': validation(), // invalid_transaction_initiation
  '0F': validation(), // locator_exception
  '0L': permission(), // invalid_grantor
  '0P': permission(), // invalid_role_specification
  '0Z': validation(), // diagnostics_exception
  '20': validation(), // case_not_found
  '21': validation(), // cardinality_violation
  '22': validation(), // data_exception: the values sent are wrong
  '23': invariant(), // integrity_constraint_violation: the write would break a declared invariant
  '24': validation(), // invalid_cursor_state
  '25': validation(), // invalid_transaction_state
  '26': validation(), // invalid_sql_statement_name
  '27': invariant(), // triggered_data_change_violation
  '28': permission(), // invalid_authorization_specification
  '2B': invariant(), // dependent_privilege_descriptors_still_exist
  '2D': validation(), // invalid_transaction_termination
  '2F': validation(), // sql_routine_exception
  '34': validation(), // invalid_cursor_name
  '38': validation(), // external_routine_exception
  '39': validation(), // external_routine_invocation_exception
  '3B': validation(), // savepoint_exception
  '3D': missingResource(), // invalid_catalog_name
  '3F': missingResource(), // invalid_schema_name
  '40': transient('rolled_back'), // transaction_rollback
  '42': validation(), // syntax_error_or_access_rule_violation
  '44': invariant(), // with_check_option_violation
  '53': transient('rolled_back'), // insufficient_resources: the statement failed and was rolled back
  '54': validation(), // program_limit_exceeded: the statement is too big or complex
  '55': invariant(), // object_not_in_prerequisite_state
  '57': transient('indeterminate'), // operator_intervention
  '58': transient('indeterminate'), // system_error (I/O errors outside PostgreSQL)
  '72': transient('rolled_back'), // snapshot_too_old
  F0: invariant(), // config_file_error: the server is misconfigured
  HV: validation(), // fdw_error
  P0: invariant(), // plpgsql_error
  XX: transient('indeterminate'), // internal_error
};

/** CONNECT-phase SQLSTATEs: they prove the statement never reached a server session. */
export const CONNECT_PHASE_SQLSTATES: ReadonlySet<string> = new Set(['08001', '08004', '53300', '57P03', 'HV00N']);

/**
 * A specific SQLSTATE's meaning. Codes ending in 000 are their class's generic code (MySQL sends
 * 42000 for both syntax errors and access denials), so they are left to the class fallback.
 */
export function sqlStateMeaning(code: string): ErrorMeaning | null {
  const known = CODES[code];
  return known ? meaningOf(known, `sqlstate:${code}`) : null;
}

/** The class fallback: generic, so a specific message pattern may refine it. */
export function sqlStateClassMeaning(code: string): ErrorMeaning | null {
  const cls = code.slice(0, 2);
  const known = CLASSES[cls];
  return known ? meaningOf({ ...known, generic: true }, `sqlstate_class:${cls}`) : null;
}
