import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compiledToolCall } from './agent-event-fast-path.js';
import { ToolCallSchema } from './agent-events.js';
import { toolCall } from './spec-support/arbitraries.js';
import { corruptOneNode } from './spec-support/corruption.js';

/**
 * compiledToolCall is the SDK's check of a call it describes, once per governed call: it either gives exactly
 * what ToolCallSchema gives (members in the same order, defaults filled) or leaves the input to zod (null).
 * It must never accept what zod refuses.
 */
const IDENTIFIERS = [
  'agent',
  'run',
  'callId',
  'intentId',
  'tool',
  'resourceClass',
  'resourceId',
  'principal',
  'authScope',
  'idempotencyKey',
] as const;
// eslint-disable-next-line no-control-regex -- U+0000 is the point
const UNSTORABLE = /[\u0000\p{Surrogate}]/u;

function agreesWithZod(input: unknown): void {
  const compiled = compiledToolCall(input);
  if (compiled === null) return;
  const parsed = ToolCallSchema.safeParse(input);
  expect(parsed.success).toBe(true);
  expect(JSON.stringify(compiled)).toBe(JSON.stringify(parsed.data));
  expect(compiled).toStrictEqual(parsed.data);
}

describe('compiledToolCall', () => {
  it('gives what zod gives for every valid call built of plain objects (as JSON.parse and object literals make)', () => {
    fc.assert(
      fc.property(toolCall, (generated) => {
        const call: unknown = JSON.parse(JSON.stringify(generated));
        // An identifier holding U+0000 or a lone surrogate is zod's to replace (identifier-text.ts).
        if (!IDENTIFIERS.some((name) => UNSTORABLE.test(String(generated[name] ?? ''))))
          expect(compiledToolCall(call)).not.toBeNull();
        agreesWithZod(call);
        // fast-check's records may have no prototype: those are left to zod, never accepted differently.
        agreesWithZod(generated);
      }),
      { numRuns: 500 },
    );
  });

  it('never accepts a call zod refuses, and agrees on any it accepts, for calls with one node corrupted', () => {
    fc.assert(
      fc.property(
        toolCall.chain((call) => corruptOneNode(call)),
        (input) => agreesWithZod(input),
      ),
      { numRuns: 1_000 },
    );
  });

  it('fills what a producer leaves out as zod does, and copies the arguments', () => {
    const args = { q: 'revenue', page: 2 };
    const call = {
      agent: 'a',
      run: 'r',
      callId: 'c',
      attempt: 1,
      intentId: 'i',
      tool: 't',
      effect: 'read',
      arguments: args,
    };
    const compiled = compiledToolCall(call)!;
    expect(compiled).toStrictEqual(ToolCallSchema.parse(call));
    expect(compiled.resourceId).toBeNull();
    expect(compiled.arguments).toEqual(args);
    expect(compiled.arguments).not.toBe(args);
  });

  it('leaves to zod what it is not sure of: an unknown member, a wrong type, a missing member', () => {
    const call = { agent: 'a', run: 'r', callId: 'c', attempt: 1, intentId: 'i', tool: 't', effect: 'read' };
    expect(compiledToolCall({ ...call, extra: 1 })).toBeNull();
    expect(compiledToolCall({ ...call, attempt: '1' })).toBeNull();
    expect(compiledToolCall({ ...call, effect: 'delete everything' })).toBeNull();
    const { tool: _tool, ...withoutTool } = call;
    expect(compiledToolCall(withoutTool)).toBeNull();
    expect(compiledToolCall(null)).toBeNull();
    expect(compiledToolCall([call])).toBeNull();
  });
});
