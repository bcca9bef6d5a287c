import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { InputLineError, isObject, parseJsonLine } from './bad-line.js';

/** A JSON line holding one agent event of any type, validated against the v1 contract. */
export function agentEventOfLine(text: string): AgentEvent {
  const value = parseJsonLine(text);
  if (!isObject(value)) throw new InputLineError('expected a JSON object (one agent event per line)');
  return parseAgentEvent(value);
}
