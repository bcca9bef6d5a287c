import { describe, expect, it } from 'vitest';
import { mcpResultIsEmpty } from './result-emptiness.js';

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('is an MCP result empty (a search that found nothing)?', () => {
  it('structured content: empty list, empty object, or an object whose only field is an empty list', () => {
    expect(mcpResultIsEmpty({ content: [], structuredContent: { results: [] } })).toBe(true);
    expect(mcpResultIsEmpty({ content: [], structuredContent: {} })).toBe(true);
    expect(mcpResultIsEmpty({ content: [], structuredContent: { results: [{ id: 1 }] } })).toBe(false);
    expect(mcpResultIsEmpty({ content: [], structuredContent: { results: [], total: 0 } })).toBe(false);
  });

  it('one text block read as JSON; no content is empty; prose says nothing', () => {
    expect(mcpResultIsEmpty(text('[]'))).toBe(true);
    expect(mcpResultIsEmpty(text('{"rows":[]}'))).toBe(true);
    expect(mcpResultIsEmpty(text('[{"id":"T-1"}]'))).toBe(false);
    expect(mcpResultIsEmpty({ content: [] })).toBe(true);
    expect(mcpResultIsEmpty(text('No tickets matched.'))).toBeNull();
    expect(
      mcpResultIsEmpty({
        content: [
          { type: 'text', text: '[]' },
          { type: 'text', text: '[]' },
        ],
      }),
    ).toBeNull();
    expect(mcpResultIsEmpty({ content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] })).toBeNull();
  });
});
