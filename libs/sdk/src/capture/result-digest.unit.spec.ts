import { RESULT_DIGEST_PATTERN, ToolCallOutcomeDataSchema } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resultDigestOf } from './result-digest.js';

describe('resultDigestOf: the digest of a result that tool_call.outcome v3 carries', () => {
  it('is sha256 of the canonical JSON, in the contract pattern', () => {
    // sha256('{"a":1,"b":[true,null]}'), as `printf %s '{"a":1,"b":[true,null]}' | sha256sum` prints it.
    expect(resultDigestOf({ b: [true, null], a: 1 })).toBe(
      'sha256:1cc69c7fa23616ca2ec3ee70d24390a6225c8832db8a4c814c7e0e7f942f8668',
    );
    expect(resultDigestOf({ a: 1 })).toMatch(RESULT_DIGEST_PATTERN);
  });

  it('does not depend on key order, and tells different results apart', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(resultDigestOf(reversed)).toBe(resultDigestOf(value));
      }),
    );
    expect(resultDigestOf({ status: 'running' })).not.toBe(resultDigestOf({ status: 'done' }));
    expect(resultDigestOf([1, 2])).not.toBe(resultDigestOf([2, 1]));
  });

  it('digests what JSON would send: a Date by its value, undefined as null; a cycle or a bigint has none', () => {
    expect(resultDigestOf({ at: new Date('2026-01-01T00:00:00Z') })).toBe(
      resultDigestOf({ at: '2026-01-01T00:00:00.000Z' }),
    );
    expect(resultDigestOf(undefined)).toBe(resultDigestOf(null));
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(resultDigestOf(cyclic)).toBeNull();
    expect(resultDigestOf({ n: 1n })).toBeNull();
  });

  it('is accepted by the v3 outcome contract', () => {
    const digest = resultDigestOf({ rows: [] });
    const parsed = ToolCallOutcomeDataSchema.safeParse({
      call: { agent: 'a', run: 'r', callId: 'c', attempt: 1, intentId: 'i', tool: 't', effect: 'read' },
      status: 'succeeded',
      resultDigest: digest,
    });
    expect(parsed.success && parsed.data.resultDigest).toBe(digest);
  });
});
