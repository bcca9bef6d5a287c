/**
 * Compares what a command printed with what the docs show. `…` stands for whatever varies (ids,
 * times, suffixes, counts): inside a line it matches any text on that line; a line that is only `…`
 * matches any number of lines, none included. Trailing spaces and trailing blank lines are ignored.
 */

const GAP = '…';

export function outputMatches(expected: readonly string[], actual: readonly string[]): boolean {
  const want = trimEnd(expected.map((l) => l.trimEnd()));
  const got = trimEnd(actual.map((l) => l.trimEnd()));
  const patterns = want.map((l) => (l.trim() === GAP ? null : linePattern(l)));
  const memo = new Map<string, boolean>();
  const match = (i: number, j: number): boolean => {
    const id = `${i},${j}`;
    const known = memo.get(id);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === patterns.length) result = j === got.length;
    else if (patterns[i] === null) result = match(i + 1, j) || (j < got.length && match(i, j + 1));
    else result = j < got.length && patterns[i]!.test(got[j]!) && match(i + 1, j + 1);
    memo.set(id, result);
    return result;
  };
  return match(0, 0);
}

function linePattern(line: string): RegExp {
  const parts = line.split(GAP).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}

function trimEnd(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}
