import { describe, expect, it } from 'vitest';
import { chartColumns, totalsOf } from './chart-data.js';
import { ago, nextActionText, resourceText } from './format.js';

const window = { from: '2026-12-01T14:00:00.000Z', to: '2026-12-01T14:05:00.000Z', bucketSeconds: 60 };

describe('chart columns', () => {
  it('has every bucket of the window, zeros included, and one column per level in a fixed order', () => {
    const columns = chartColumns(
      [
        { bucket: '2026-12-01T14:01:00.000Z', level: 'block', failureClass: 'permission', count: 2 },
        { bucket: '2026-12-01T14:01:00.000Z', level: 'page', failureClass: 'ambiguous_effect', count: 1 },
        { bucket: '2026-12-01T14:04:00.000Z', level: 'block', failureClass: 'validation', count: 3 },
      ],
      window,
      'level',
    );
    expect(columns.x).toHaveLength(5);
    expect(columns.x[0]).toBe(Date.parse(window.from) / 1000);
    expect(columns.series).toEqual([
      { name: 'page', counts: [0, 1, 0, 0, 0] },
      { name: 'block', counts: [0, 2, 0, 0, 3] },
      { name: 'advise', counts: [0, 0, 0, 0, 0] },
    ]);
    expect(totalsOf(columns)).toEqual({ page: 1, block: 5, advise: 0 });
  });

  it('groups by class, summing levels, and ignores points outside the window', () => {
    const columns = chartColumns(
      [
        { bucket: '2026-12-01T14:02:00.000Z', level: 'block', failureClass: 'permission', count: 2 },
        { bucket: '2026-12-01T14:02:00.000Z', level: 'page', failureClass: 'permission', count: 1 },
        { bucket: '2026-12-01T15:00:00.000Z', level: 'page', failureClass: 'permission', count: 9 },
      ],
      window,
      'failureClass',
    );
    expect(columns.series.find((s) => s.name === 'permission')!.counts).toEqual([0, 0, 3, 0, 0]);
    expect(columns.series.map((s) => s.name)).toHaveLength(6);
  });
});

describe('page text', () => {
  it('says what the next action means, and shows unknown codes as they are', () => {
    expect(nextActionText('stop_request_authorization')).toBe('Stop; request auth/scope change');
    expect(nextActionText('something_new')).toBe('something_new');
  });

  it('writes ages and resources for people', () => {
    const now = Date.parse('2026-12-01T14:10:00.000Z');
    expect(ago('2026-12-01T14:09:58.000Z', now)).toBe('just now');
    expect(ago('2026-12-01T14:07:00.000Z', now)).toBe('3 min ago');
    expect(ago('2026-12-01T11:10:00.000Z', now)).toBe('3 h ago');
    expect(resourceText('sql_namespace', 'finance')).toBe('sql_namespace: finance');
    expect(resourceText(null, null)).toBe('—');
  });
});
