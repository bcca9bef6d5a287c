import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MIGRATIONS_FOLDER } from './migrations-folder.js';
import { migrationLevel, readJournal } from './migration-level.js';

const journal = [
  { tag: '0000_init', when: 1_000 },
  { tag: '0001_more', when: 2_000 },
  { tag: '0002_last', when: 3_000 },
];

describe('migrationLevel: where a database stands against this build (drizzle: newest created_at wins)', () => {
  it('no migration recorded: empty, naming the one expected', () => {
    expect(migrationLevel(journal, [])).toEqual({ status: 'empty', expected: '0002_last' });
  });

  it('some pending: behind, naming where it is and every pending migration in order', () => {
    expect(migrationLevel(journal, [1_000])).toEqual({
      status: 'behind',
      at: '0000_init',
      expected: '0002_last',
      pending: ['0001_more', '0002_last'],
    });
  });

  it('every migration applied: current', () => {
    expect(migrationLevel(journal, [1_000, 2_000, 3_000])).toEqual({ status: 'current', at: '0002_last' });
  });

  it('a newer build migrated it: ahead (not refused: additive migrations keep an older build working)', () => {
    expect(migrationLevel(journal, [1_000, 2_000, 3_000, 4_000])).toEqual({ status: 'ahead', expected: '0002_last' });
  });

  it('is decided by the newest recorded timestamp alone, as drizzle applies (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 6 }), (applied) => {
        const level = migrationLevel(journal, applied);
        const newest = Math.max(...applied);
        if (newest < 3_000) expect(level.status).toBe('behind');
        else if (newest === 3_000) expect(level.status).toBe('current');
        else expect(level.status).toBe('ahead');
        if (level.status === 'behind') {
          expect(level.pending).toEqual(journal.filter((e) => e.when > newest).map((e) => e.tag));
        }
      }),
    );
  });

  it('refuses an empty journal: there would be nothing to compare with', () => {
    expect(() => migrationLevel([], [1])).toThrow('lists no migration');
  });

  it("reads the repository's journal in order, ending at the newest migration file", () => {
    const entries = readJournal(MIGRATIONS_FOLDER);
    expect(entries.length).toBeGreaterThan(0);
    const whens = entries.map((e) => e.when);
    expect(whens).toEqual([...whens].sort((a, b) => a - b));
    expect(entries.at(-1)!.tag).toMatch(/^\d{4}_/);
  });
});
