import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identifierText, type AgentEvent, type ToolCallInput } from '@tokencircuit/contracts';
import { consumedRecord, permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG, redactCall } from '@tokencircuit/governance';
import { acceptedEvent, decode } from '../../libs/projection/src/decode.js';
import { parseIngestBody } from '../../libs/api-http/src/ingest/ingest-request.js';
import { PreflightRequestSchema } from '../../libs/api-http/src/preflight/preflight-request.js';
import { validated } from '../../libs/api-http/src/http/validated.js';

/**
 * One text rule for identifiers (libs/contracts/src/identifier-text.ts), held over arbitrary text: a
 * failure ingested through the real doors (POST /v1/events' parser, then the Kafka record the API
 * publishes read back by the projector's decoder, or a direct producer's structured record, or the
 * embedded bus) lands in the key a preflight of the same call, read by the real preflight parser, looks up.
 * A lone surrogate stored as U+FFFD and looked up as the original was a fleet-wide block answered `allow: true`.
 */
const governance = createGovernance(DEFAULT_CONFIG);
const NOW = '2026-01-05T10:00:05.000Z';
const AT = { topic: 'agent-events', partition: 0, offset: '0' };

// Any UTF-16 unit (lone surrogates included), with the troublesome ones and key separators made frequent.
const unit = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ufffd', '|', '%', '=', '~', 'é', 'e\u0301'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const identifier = fc.string({ unit, minLength: 1, maxLength: 24 });

const keyFields = fc.record({
  run: identifier,
  principal: identifier,
  resourceId: identifier,
  tool: identifier,
  resourceClass: identifier,
  authScope: identifier,
});

/** The stored event after each way an accepted event reaches the projection. */
function storedThroughEachDoor(input: unknown): AgentEvent[] {
  const [accepted] = parseIngestBody(input, 'acme');
  const viaKafka = (mode: 'binary' | 'structured') => {
    const decoded = decode(consumedRecord(accepted!, AT, mode));
    if (!decoded.ok) throw new Error(`parked: ${decoded.deadLetter.reason}`);
    return decoded.event.event;
  };
  // A direct producer's structured record of the original text (JSON escapes a lone surrogate).
  const direct = decode(consumedRecord(input as AgentEvent, AT, 'structured'));
  if (!direct.ok) throw new Error(`parked: ${direct.deadLetter.reason}`);
  return [viaKafka('binary'), viaKafka('structured'), acceptedEvent(accepted!, AT).event, direct.event.event];
}

const preflightOf = (call: ToolCallInput) => redactCall(validated(PreflightRequestSchema, { call }).call);

describe('identifier text: what ingest stores is what preflight looks up', () => {
  it('a denial stored through every door blocks a preflight of the original text, in the same and another run', () => {
    fc.assert(
      fc.property(keyFields, (fields) => {
        const denied = toolCall({ ...fields, agent: 'agent-a' });
        for (const stored of storedThroughEachDoor(permissionDenied('acme', denied))) {
          const { states } = governance.replay([stored]);
          const blocked = [...states.values()].filter((s) => s.status === 'blocked');
          expect(blocked).toHaveLength(1);
          expect(blocked[0]!.key.scope).toBe('fleet');
          for (const run of [fields.run, `${fields.run}-b`]) {
            const asked = preflightOf({ ...denied, agent: 'agent-b', run, callId: 'call-b' });
            const verdict = governance.preflight(states.values(), 'acme', asked, NOW);
            expect(verdict.allow).toBe(false);
            expect(verdict.blocking?.keyId).toBe(blocked[0]!.keyId);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('both doors read every key field as the rule writes it, and neither refuses what the other accepts', () => {
    fc.assert(
      fc.property(keyFields, (fields) => {
        const call = toolCall(fields);
        const asked = preflightOf(call);
        const [stored] = storedThroughEachDoor(permissionDenied('acme', call));
        const storedCall = (stored as Extract<AgentEvent, { type: 'tool_call.outcome' }>).data.call;
        for (const name of Object.keys(fields) as (keyof typeof fields)[]) {
          expect(asked[name]).toBe(storedCall[name]);
          expect(asked[name]).toBe(redactCall({ value: identifierText(fields[name]) }).value);
        }
      }),
      { numRuns: 300 },
    );
  });
});
