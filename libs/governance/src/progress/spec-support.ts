import { createHash } from 'node:crypto';
import type { AgentEvent, ToolCall } from '@tokencircuit/contracts';
import type { SpecAgent } from '@tokencircuit/contracts/testing';

/** A result digest as a producer computes it, for a short label of the result ("q3 revenue: 42"). */
export const digestOf = (result: string): string =>
  `sha256:${createHash('sha256').update(result, 'utf8').digest('hex')}`;

/** The successful outcome of `call` returning `result` (tool_call.outcome v3 with its digest). */
export function returned(agent: SpecAgent, call: ToolCall, result: string): AgentEvent {
  const event = agent.succeeded(call, { empty: false });
  if (event.type !== 'tool_call.outcome') throw new TypeError('succeeded() made no outcome');
  return { ...event, data: { ...event.data, resultDigest: digestOf(result) } };
}
