import { describe, expect, it } from 'vitest';
import { emptyFinding, emptyResultNote } from './empty-check.js';
import { VerifyEmptySchema } from './gateway-config.js';
import { textResult, type ToolResult } from './mcp-result.js';

const rows = (list: unknown[]): ToolResult => ({ content: [], structuredContent: { rows: list } });

describe('emptyFinding: the broader read tells a valid empty from a wrong query', () => {
  const withPath = VerifyEmptySchema.parse({ tool: 'list_orders', found: '$.rows[0]' });
  const withoutPath = VerifyEmptySchema.parse({ tool: 'list_orders' });

  it('refutes the empty read when the path holds data it should have matched', () => {
    expect(emptyFinding(withPath, rows([{ id: 'o-1' }]), false)).toBe('refuted');
  });

  it('confirms the empty read when the broader read finds nothing at the path', () => {
    expect(emptyFinding(withPath, rows([]), true)).toBe('confirmed');
  });

  it('reads a JSON text block when there is no structured content', () => {
    expect(emptyFinding(withPath, textResult(JSON.stringify({ rows: [{ id: 1 }] }), false), null)).toBe('refuted');
  });

  it('without a path, goes by the broader answer being empty or not', () => {
    expect(emptyFinding(withoutPath, rows([{ id: 1 }]), false)).toBe('refuted');
    expect(emptyFinding(withoutPath, rows([]), true)).toBe('confirmed');
    expect(emptyFinding(withoutPath, textResult('some prose', false), null)).toBe('inconclusive');
  });

  it('takes nothing from a broader read that failed', () => {
    expect(emptyFinding(withPath, textResult('permission denied', true), null)).toBe('inconclusive');
  });
});

describe('emptyResultNote', () => {
  it('tells the model to repair the query once when the empty was refuted', () => {
    expect(emptyResultNote('db__search', 'list_orders', 'refuted')).toMatch(/query is probably wrong.*try once more/);
  });

  it('says an unchecked empty is not a fact yet', () => {
    expect(emptyResultNote('db__search', null, 'inconclusive')).toMatch(/has not verified.*before telling the user/);
  });
});

describe('VerifyEmptySchema', () => {
  it('names a bad path', () => {
    const parsed = VerifyEmptySchema.safeParse({ tool: 'list_orders', found: 'rows[0]' });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/a path like/);
  });
});
