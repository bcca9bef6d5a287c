import { invariant, permission, transient, validation, type Semantics } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;
const notSent = (s: Semantics): Semantics => ({ ...s, effect: 'not_sent' });

/**
 * Cassandra's errors as the DataStax drivers name them (native protocol spec v4 §9,
 * https://github.com/apache/cassandra/blob/trunk/doc/native_protocol_v4.spec). Unavailable is raised by
 * the coordinator before it sends the write to any replica; a write timeout means some replicas may hold it.
 * The Python driver's classes drop the "Exception" suffix (cassandra.Unavailable, cassandra.WriteTimeout,
 * cassandra.InvalidRequest: https://docs.datastax.com/en/developer/python-driver/3.29/api/cassandra/), and some
 * of those bare words are other providers' codes too ("Unavailable" and "InvalidRequest" are AWS's): CASSANDRA_SCOPED.
 */
export const CASSANDRA: ProviderGroup = {
  provider: 'cassandra',
  source: 'https://github.com/apache/cassandra/blob/trunk/doc/native_protocol_v4.spec',
  entries: [
    // The driver reached no node at all: nothing was sent.
    [notSent(transient('rejected')), ['NoHostAvailableException', 'NoNodeAvailableException', 'NoHostAvailable']],
    // The coordinator answered: too few live replicas for the consistency level, so it wrote to none of them.
    [transient('rejected'), ['UnavailableException']],
    [transient('rejected'), ['OverloadedException', 'IsBootstrappingException', 'BootstrappingException']],
    [
      transient('indeterminate'),
      [
        'WriteTimeoutException',
        'WriteFailureException',
        'CASWriteUnknownException',
        'ReadTimeoutException',
        'ReadFailureException',
        'WriteTimeout',
        'WriteFailure',
        'ReadTimeout',
        'ReadFailure',
        'OperationTimedOut',
      ],
    ],
    // "Invalid" is the server's catch-all for a request it cannot run, missing tables included ("unconfigured table
    // users"): a phrase in its message may say more.
    [validation({ generic: true }), ['InvalidQueryException']],
    [validation(), ['InvalidRequestException']],
    [validation(), ['SyntaxError', 'SyntaxException', 'FunctionFailureException', 'FunctionFailure']],
    [permission(), ['UnauthorizedException', 'AuthenticationException', 'Unauthorized', 'AuthenticationFailed']],
    [invariant('rejected', dup), ['AlreadyExistsException', 'AlreadyExists']],
  ],
};

/**
 * The Python driver's names that are other providers' codes with another meaning, read only where the outcome declares
 * Cassandra (or ScyllaDB, which speaks its protocol): AWS's "Unavailable" is a service that may have acted.
 */
export const CASSANDRA_SCOPED: ProviderGroup = {
  provider: 'cassandra',
  aliases: ['scylladb', 'scylla', 'datastax', 'astra'],
  source: 'https://docs.datastax.com/en/developer/python-driver/3.29/api/cassandra/',
  entries: [
    [transient('rejected'), ['Unavailable']],
    [validation({ generic: true }), ['InvalidRequest']],
  ],
};

/**
 * The native protocol's error codes (spec v4 §9) by the hexadecimal number the Python driver prints in its messages
 * ("Error from server: code=1000 [Unavailable exception] message=…"), named as CASSANDRA names them.
 */
export const CASSANDRA_ERROR_CODES: ReadonlyMap<string, string> = new Map([
  ['1000', 'UnavailableException'],
  ['1001', 'OverloadedException'],
  ['1002', 'IsBootstrappingException'],
  ['1100', 'WriteTimeoutException'],
  ['1200', 'ReadTimeoutException'],
  ['1300', 'ReadFailureException'],
  ['1400', 'FunctionFailureException'],
  ['1500', 'WriteFailureException'],
  ['2000', 'SyntaxError'],
  ['2100', 'UnauthorizedException'],
  ['2200', 'InvalidQueryException'],
  ['2400', 'AlreadyExistsException'],
  ['0100', 'AuthenticationException'],
]);
