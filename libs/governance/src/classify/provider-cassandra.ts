import { invariant, permission, transient, validation, type Semantics } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;
const notSent = (s: Semantics): Semantics => ({ ...s, effect: 'not_sent' });

/**
 * Cassandra's errors as the DataStax drivers name them (native protocol spec v4 §9,
 * https://github.com/apache/cassandra/blob/trunk/doc/native_protocol_v4.spec). Unavailable is raised by
 * the coordinator before it sends the write to any replica; a write timeout means some replicas may hold it.
 */
export const CASSANDRA: ProviderGroup = {
  provider: 'cassandra',
  source: 'https://github.com/apache/cassandra/blob/trunk/doc/native_protocol_v4.spec',
  entries: [
    [notSent(transient('rejected')), ['UnavailableException', 'NoHostAvailableException', 'NoNodeAvailableException']],
    [transient('rejected'), ['OverloadedException', 'IsBootstrappingException', 'BootstrappingException']],
    [
      transient('indeterminate'),
      [
        'WriteTimeoutException',
        'WriteFailureException',
        'CASWriteUnknownException',
        'ReadTimeoutException',
        'ReadFailureException',
      ],
    ],
    [validation(), ['InvalidQueryException', 'InvalidRequestException', 'SyntaxError', 'FunctionFailureException']],
    [permission(), ['UnauthorizedException', 'AuthenticationException']],
    [invariant('rejected', dup), ['AlreadyExistsException']],
  ],
};
