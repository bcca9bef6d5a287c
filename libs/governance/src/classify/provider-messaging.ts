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
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;
const notSent = (s: Semantics): Semantics => ({ ...s, effect: 'not_sent' });

/**
 * Kafka protocol error codes by name (https://kafka.apache.org/protocol#protocol_error_codes), as
 * KafkaJS (error.type), librdkafka/confluent-kafka (ERR_…) and the Java client (…Exception) report them.
 * An error in a produce response is the broker's refusal of that batch, except the ones that say the
 * batch may have been written (a timeout, too few replicas after the append).
 */
export const KAFKA: ProviderGroup = {
  provider: 'kafka',
  source: 'https://kafka.apache.org/protocol#protocol_error_codes',
  entries: [
    [
      transient('rejected'),
      [
        'NOT_LEADER_OR_FOLLOWER',
        'NOT_LEADER_FOR_PARTITION',
        'NotLeaderOrFollowerException',
        'LEADER_NOT_AVAILABLE',
        'LeaderNotAvailableException',
        'NOT_ENOUGH_REPLICAS',
        'NotEnoughReplicasException',
        'COORDINATOR_NOT_AVAILABLE',
        'NOT_COORDINATOR',
        'COORDINATOR_LOAD_IN_PROGRESS',
        'REBALANCE_IN_PROGRESS',
        'KAFKA_STORAGE_ERROR',
        'THROTTLING_QUOTA_EXCEEDED',
        'FENCED_LEADER_EPOCH',
        'UNKNOWN_LEADER_EPOCH',
        'NOT_CONTROLLER',
        'CONCURRENT_TRANSACTIONS',
        'PREFERRED_LEADER_NOT_AVAILABLE',
        'UNSTABLE_OFFSET_COMMIT',
        'CORRUPT_MESSAGE',
        'UNKNOWN_MEMBER_ID',
        'ILLEGAL_GENERATION',
      ],
    ],
    // The batch may be in the log: reconcile before a non-idempotent producer sends it again.
    [
      transient('indeterminate'),
      [
        'REQUEST_TIMED_OUT',
        'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
        'NotEnoughReplicasAfterAppendException',
        'NETWORK_EXCEPTION',
      ],
    ],
    [transient('indeterminate', { generic: true }), ['UNKNOWN_SERVER_ERROR']],
    [
      missingResource(),
      [
        'UNKNOWN_TOPIC_OR_PARTITION',
        'UnknownTopicOrPartitionException',
        'UNKNOWN_TOPIC_ID',
        'GROUP_ID_NOT_FOUND',
        'RESOURCE_NOT_FOUND',
        'TRANSACTIONAL_ID_NOT_FOUND',
      ],
    ],
    [
      permission(),
      [
        'TOPIC_AUTHORIZATION_FAILED',
        'TopicAuthorizationException',
        'GROUP_AUTHORIZATION_FAILED',
        'CLUSTER_AUTHORIZATION_FAILED',
        'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
        'DELEGATION_TOKEN_AUTHORIZATION_FAILED',
        'SASL_AUTHENTICATION_FAILED',
        'SaslAuthenticationException',
        'UNSUPPORTED_SASL_MECHANISM',
        'ILLEGAL_SASL_STATE',
        'POLICY_VIOLATION',
      ],
    ],
    [
      validation(),
      [
        'MESSAGE_TOO_LARGE',
        'RecordTooLargeException',
        'RECORD_LIST_TOO_LARGE',
        'INVALID_TOPIC_EXCEPTION',
        'INVALID_REQUIRED_ACKS',
        'INVALID_RECORD',
        'INVALID_PARTITIONS',
        'INVALID_REPLICATION_FACTOR',
        'INVALID_CONFIG',
        'INVALID_TIMESTAMP',
        'UNSUPPORTED_VERSION',
        'UNSUPPORTED_COMPRESSION_TYPE',
        'OFFSET_OUT_OF_RANGE',
      ],
    ],
    [invariant('rejected', dup), ['TOPIC_ALREADY_EXISTS', 'TopicExistsException']],
    // Another producer instance took over the transactional id, or the sequence broke: fail closed.
    [
      invariant(),
      [
        'PRODUCER_FENCED',
        'INVALID_PRODUCER_EPOCH',
        'ProducerFencedException',
        'OUT_OF_ORDER_SEQUENCE_NUMBER',
        'INVALID_TXN_STATE',
      ],
    ],
  ],
};

/** Kafka error codes by number, for the kafka dialect (librdkafka's err.code, the Java client's errorCode). */
export const KAFKA_NUMBERS: ReadonlyMap<number, string> = new Map([
  [-1, 'UNKNOWN_SERVER_ERROR'],
  [1, 'OFFSET_OUT_OF_RANGE'],
  [2, 'CORRUPT_MESSAGE'],
  [3, 'UNKNOWN_TOPIC_OR_PARTITION'],
  [5, 'LEADER_NOT_AVAILABLE'],
  [6, 'NOT_LEADER_OR_FOLLOWER'],
  [7, 'REQUEST_TIMED_OUT'],
  [10, 'MESSAGE_TOO_LARGE'],
  [13, 'NETWORK_EXCEPTION'],
  [14, 'COORDINATOR_LOAD_IN_PROGRESS'],
  [15, 'COORDINATOR_NOT_AVAILABLE'],
  [16, 'NOT_COORDINATOR'],
  [17, 'INVALID_TOPIC_EXCEPTION'],
  [18, 'RECORD_LIST_TOO_LARGE'],
  [19, 'NOT_ENOUGH_REPLICAS'],
  [20, 'NOT_ENOUGH_REPLICAS_AFTER_APPEND'],
  [21, 'INVALID_REQUIRED_ACKS'],
  [22, 'ILLEGAL_GENERATION'],
  [25, 'UNKNOWN_MEMBER_ID'],
  [27, 'REBALANCE_IN_PROGRESS'],
  [29, 'TOPIC_AUTHORIZATION_FAILED'],
  [30, 'GROUP_AUTHORIZATION_FAILED'],
  [31, 'CLUSTER_AUTHORIZATION_FAILED'],
  [32, 'INVALID_TIMESTAMP'],
  [33, 'UNSUPPORTED_SASL_MECHANISM'],
  [34, 'ILLEGAL_SASL_STATE'],
  [35, 'UNSUPPORTED_VERSION'],
  [36, 'TOPIC_ALREADY_EXISTS'],
  [37, 'INVALID_PARTITIONS'],
  [38, 'INVALID_REPLICATION_FACTOR'],
  [40, 'INVALID_CONFIG'],
  [41, 'NOT_CONTROLLER'],
  [44, 'POLICY_VIOLATION'],
  [45, 'OUT_OF_ORDER_SEQUENCE_NUMBER'],
  [47, 'INVALID_PRODUCER_EPOCH'],
  [48, 'INVALID_TXN_STATE'],
  [51, 'CONCURRENT_TRANSACTIONS'],
  [53, 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED'],
  [56, 'KAFKA_STORAGE_ERROR'],
  [58, 'SASL_AUTHENTICATION_FAILED'],
  [69, 'GROUP_ID_NOT_FOUND'],
  [74, 'FENCED_LEADER_EPOCH'],
  [75, 'UNKNOWN_LEADER_EPOCH'],
  [76, 'UNSUPPORTED_COMPRESSION_TYPE'],
  [80, 'PREFERRED_LEADER_NOT_AVAILABLE'],
  [87, 'INVALID_RECORD'],
  [88, 'UNSTABLE_OFFSET_COMMIT'],
  [89, 'THROTTLING_QUOTA_EXCEEDED'],
  [90, 'PRODUCER_FENCED'],
  [91, 'RESOURCE_NOT_FOUND'],
  [100, 'UNKNOWN_TOPIC_ID'],
]);

/**
 * AMQP 0-9-1 reply codes by their constant names (https://www.rabbitmq.com/amqp-0-9-1-reference#constants),
 * as RabbitMQ writes them at the head of its reply text ("NOT_FOUND - no queue 'jobs' in vhost '/'") and
 * amqplib prints them ("404 (NOT-FOUND)"). A channel or connection exception answers the method that
 * caused it: the server did not carry it out.
 */
const AMQP_GROUP: ProviderGroup = {
  provider: 'amqp',
  source: 'https://www.rabbitmq.com/amqp-0-9-1-reference#constants',
  entries: [
    [missingResource(), ['NOT_FOUND']],
    [permission(), ['ACCESS_REFUSED', 'NOT_ALLOWED']],
    [missingResource(), ['NO_ROUTE', 'INVALID_PATH']],
    // 406: a redeclaration with other arguments, an unknown delivery tag, a consumer ack timeout.
    [validation({ generic: true }), ['PRECONDITION_FAILED']],
    [
      validation(),
      ['CONTENT_TOO_LARGE', 'FRAME_ERROR', 'SYNTAX_ERROR', 'COMMAND_INVALID', 'CHANNEL_ERROR', 'UNEXPECTED_FRAME'],
    ],
    [transient('rejected'), ['RESOURCE_LOCKED', 'RESOURCE_ERROR', 'NO_CONSUMERS']],
    // The broker closed the connection (shutdown, an operator): what was in flight is unknown.
    [transient('indeterminate'), ['CONNECTION_FORCED']],
    [transient('indeterminate', { generic: true }), ['INTERNAL_ERROR']],
    [validation(), ['NOT_IMPLEMENTED']],
  ],
};

/**
 * Read only where AMQP is known to be speaking (its dialect, RabbitMQ's and amqplib's formats): other
 * providers use some of the same words for other things (S3's PreconditionFailed is a concurrency conflict).
 */
const AMQP_BY_NAME: ReadonlyMap<string, Semantics> = new Map(
  AMQP_GROUP.entries.flatMap(([semantics, names]) => names.map((name) => [name, semantics] as const)),
);

export function amqpNameMeaning(name: string): ErrorMeaning | null {
  const semantics = AMQP_BY_NAME.get(name.toUpperCase().replace(/-/g, '_'));
  return semantics ? meaningOf(semantics, `amqp:${name.toUpperCase().replace(/-/g, '_')}`) : null;
}

/** AMQP 0-9-1 reply codes by number, for the amqp dialect and amqplib's "404 (NOT-FOUND)". */
export const AMQP_NUMBERS: ReadonlyMap<number, string> = new Map([
  [311, 'CONTENT_TOO_LARGE'],
  [312, 'NO_ROUTE'],
  [313, 'NO_CONSUMERS'],
  [320, 'CONNECTION_FORCED'],
  [402, 'INVALID_PATH'],
  [403, 'ACCESS_REFUSED'],
  [404, 'NOT_FOUND'],
  [405, 'RESOURCE_LOCKED'],
  [406, 'PRECONDITION_FAILED'],
  [501, 'FRAME_ERROR'],
  [502, 'SYNTAX_ERROR'],
  [503, 'COMMAND_INVALID'],
  [504, 'CHANNEL_ERROR'],
  [505, 'UNEXPECTED_FRAME'],
  [506, 'RESOURCE_ERROR'],
  [530, 'NOT_ALLOWED'],
  [540, 'NOT_IMPLEMENTED'],
  [541, 'INTERNAL_ERROR'],
]);

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

/**
 * LDAP result codes (RFC 4511 §4.1.9 and Appendix A) by number, read from JNDI's "LDAP: error code 49 - …"
 * and python-ldap's {'result': 49, …}; ldapjs names them as error classes (LDAP below).
 */
export const LDAP_NUMBERS: ReadonlyMap<number, readonly [string, Semantics]> = new Map<
  number,
  readonly [string, Semantics]
>([
  [1, ['operationsError', transient('rejected', { generic: true })]],
  [2, ['protocolError', validation()]],
  [3, ['timeLimitExceeded', transient('indeterminate')]],
  [4, ['sizeLimitExceeded', validation()]],
  [7, ['authMethodNotSupported', permission()]],
  [8, ['strongerAuthRequired', permission()]],
  [11, ['adminLimitExceeded', validation()]],
  [13, ['confidentialityRequired', permission()]],
  [16, ['noSuchAttribute', missingResource()]],
  [17, ['undefinedAttributeType', validation()]],
  [18, ['inappropriateMatching', validation()]],
  [19, ['constraintViolation', validation()]],
  [20, ['attributeOrValueExists', invariant('rejected', dup)]],
  [21, ['invalidAttributeSyntax', validation()]],
  [32, ['noSuchObject', missingResource()]],
  [34, ['invalidDNSyntax', validation()]],
  [48, ['inappropriateAuthentication', permission()]],
  [49, ['invalidCredentials', permission()]],
  [50, ['insufficientAccessRights', permission()]],
  [51, ['busy', transient('rejected')]],
  [52, ['unavailable', transient('rejected')]],
  [53, ['unwillingToPerform', permission({ generic: true })]],
  [54, ['loopDetect', invariant()]],
  [64, ['namingViolation', validation()]],
  [65, ['objectClassViolation', validation()]],
  [66, ['notAllowedOnNonLeaf', invariant()]],
  [67, ['notAllowedOnRDN', validation()]],
  [68, ['entryAlreadyExists', invariant('rejected', dup)]],
  [69, ['objectClassModsProhibited', validation()]],
  [80, ['other', transient('indeterminate', { generic: true })]],
]);

/** ldapjs's error class names ("InvalidCredentialsError") for the same codes. */
export const LDAP: ProviderGroup = {
  provider: 'ldap',
  source: 'https://www.rfc-editor.org/rfc/rfc4511#section-4.1.9',
  entries: [...LDAP_NUMBERS.values()]
    .filter(([name]) => name !== 'other' && name !== 'busy' && name !== 'unavailable')
    .map(([name, semantics]) => [semantics, [`${name[0]!.toUpperCase()}${name.slice(1)}Error`]] as const),
};

/**
 * DNS response codes (RFC 1035 §4.1.1, RFC 2136, https://www.iana.org/assignments/dns-parameters), as
 * resolvers and dig print them: the lookup failed before any request to the named host was sent.
 */
export const DNS: ProviderGroup = {
  provider: 'dns',
  source: 'https://www.rfc-editor.org/rfc/rfc1035#section-4.1.1',
  entries: [
    [notSent(missingResource()), ['NXDOMAIN']],
    [notSent(transient('rejected')), ['SERVFAIL']],
    [notSent(validation()), ['FORMERR', 'NOTIMP']],
  ],
};
