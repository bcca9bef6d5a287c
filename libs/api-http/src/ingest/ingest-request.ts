import { ContractError, type AgentEvent } from '@tokencircuit/contracts';
import { InvalidRequestError, PayloadTooLargeError, TenantMismatchError } from '../http/api-errors.js';
import { acceptedAgentEvent } from './accepted-agent-event.js';

/** Events per POST /v1/events batch. */
export const MAX_BATCH_EVENTS = 500;

/**
 * POST /v1/events body → validated events of the caller's tenant, all or nothing. The body is one agent
 * event or `{ "events": [...] }`; the first bad event decides the error, which names its field and, in a
 * batch, its index. Pure: the controller publishes only what this returns.
 */
export function parseIngestBody(body: unknown, tenant: string): AgentEvent[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError('invalid_body', '(body)', 'the body must be an agent event or { "events": [ ... ] }');
  }
  if (!('events' in body) || 'type' in body) return [parseOne(body, tenant, null)];

  const { events } = body as { events: unknown };
  if (!Array.isArray(events))
    throw new InvalidRequestError('invalid_field', 'events', 'events: must be an array of agent events');
  if (events.length === 0)
    throw new InvalidRequestError('invalid_field', 'events', 'events: must hold at least one event');
  if (events.length > MAX_BATCH_EVENTS) {
    throw new InvalidRequestError(
      'too_many_events',
      'events',
      `events: ${events.length} events; at most ${MAX_BATCH_EVENTS} per request`,
    );
  }
  return events.map((event, index) => parseOne(event, tenant, index));
}

function parseOne(candidate: unknown, tenant: string, index: number | null): AgentEvent {
  const at = index === null ? '' : `events[${index}]: `;
  let event: AgentEvent;
  try {
    // The projector redacts again for direct producers.
    event = acceptedAgentEvent(candidate);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    if (error.code === 'too_large') throw new PayloadTooLargeError(`${at}${error.message}`, index);
    throw new InvalidRequestError(error.code, error.field, `${at}${error.message}`, index);
  }
  if (event.tenant !== tenant) {
    // Same words whether the tenant exists or not: the answer must not confirm other tenants' names.
    throw new TenantMismatchError(index, `${at}tenant: the event's tenant is not the tenant of the API key`);
  }
  return event;
}
