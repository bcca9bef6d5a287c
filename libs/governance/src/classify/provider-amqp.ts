import {
  meaningOf,
  missingResource,
  permission,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

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
