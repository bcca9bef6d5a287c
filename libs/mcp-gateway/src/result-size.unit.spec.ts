import { describe, expect, it } from 'vitest';
import { oversizedResult } from './result-size.js';

describe('oversizedResult', () => {
  it('tells a read to ask for less, with the sizes', () => {
    const result = oversizedResult('db__search', 'read', 2_097_152, 1_048_576);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/2,097,152 bytes, more than the 1,048,576.*narrow the query/);
    expect(result.structuredContent).toEqual({
      tokencircuit: 'result_too_large',
      tool: 'db__search',
      bytes: 2_097_152,
      limit: 1_048_576,
    });
  });

  it('tells anything that may have written that it ran and must not be sent again', () => {
    for (const effect of ['write', 'idempotent_write', 'unknown'] as const)
      expect(oversizedResult('t__create', effect, 5_000, 1_024).content[0]?.text).toMatch(/It ran: do not send it again/);
  });
});
