import { readFileSync } from 'node:fs';
import { RESOLUTION_MEANINGS, RESOLUTION_SITUATIONS } from '@tokencircuit/governance';
import { describe, expect, it } from 'vitest';
import { resolutionHelp } from './resolution-help.js';

const situationWords = (situation: string) => situation.replace(/_/g, ' ');

describe('what each resolution means: the same words in resolve --help and docs/cli.md as in the core', () => {
  it('resolve --help lists every kind that applies, per kind of key, with its meaning', () => {
    const help = resolutionHelp();
    for (const situation of RESOLUTION_SITUATIONS) {
      expect(help).toContain(`  ${situationWords(situation)}:`);
      for (const [kind, meaning] of Object.entries(RESOLUTION_MEANINGS[situation])) {
        if (kind !== 'acknowledged') expect(help).toContain(`${kind.padEnd(18)} ${meaning}`);
      }
    }
  });

  it("docs/cli.md's table has exactly the core's rows", () => {
    const page = readFileSync(new URL('../../../../docs/cli.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('### What each resolution means'));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| key') && !line.startsWith('| ---'))
      .map((line) =>
        line
          .split('|')
          .map((cell) => cell.trim())
          .slice(1, 4),
      );
    const expected = RESOLUTION_SITUATIONS.flatMap((situation) =>
      Object.entries(RESOLUTION_MEANINGS[situation]).map(([kind, meaning]) => [
        situationWords(situation),
        `\`${kind}\``,
        meaning,
      ]),
    );
    expect(rows.slice(0, expected.length)).toEqual(expected);
  });
});
