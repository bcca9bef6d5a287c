import type { AgentEvent } from './agent-events.js';
import { LIMITS } from './limits.js';

/**
 * UTF-8 bytes the raw fields of a tool call take in the failure-state key id built from them
 * (governance keyIdOf: fields joined by "|", each of % | = ~ escaped to three bytes). The key id and
 * the outbox id derived from it are primary keys, and a B-tree entry cannot exceed 2704 bytes: a key
 * id above that fails the projector's transaction, so the contract refuses such a call at the edge.
 * Counts run and principal together, the union of both key shapes (run-scoped and fleet-scoped).
 */
export function stateKeyBytes(event: AgentEvent): number {
  if (event.type !== 'tool_call.requested' && event.type !== 'tool_call.outcome') return 0;
  const c = event.data.call;
  let bytes = escapedBytes(event.tenant);
  for (const field of [c.run, c.principal, c.resourceId, c.tool, c.resourceClass, c.authScope]) {
    if (field !== null) bytes += escapedBytes(field);
  }
  return bytes;
}

/** The ContractError-ready message when the key fields are too long, else null. */
export function stateKeyProblem(event: AgentEvent): string | null {
  const bytes = stateKeyBytes(event);
  return bytes > LIMITS.stateKeyBytes
    ? `tenant, run, principal, resourceId, tool, resourceClass and authScope take ${bytes} bytes together; ` +
        `the limit is ${LIMITS.stateKeyBytes} (they form a database key)`
    : null;
}

const SPECIAL = /[%|=~]/g;
const escapedBytes = (value: string): number =>
  Buffer.byteLength(value, 'utf8') + 2 * (value.match(SPECIAL)?.length ?? 0);
