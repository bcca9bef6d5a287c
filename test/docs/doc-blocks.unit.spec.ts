import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConsole } from './support/console-block.js';
import { conventionProblem, isCommandBlock, modeOf, parseBlocks } from './support/doc-blocks.js';
import { outputMatches } from './support/output-match.js';

const REPO = resolve(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const commandBlocks = DOCS.flatMap((file) => parseBlocks(file, readFileSync(join(REPO, file), 'utf8'))).filter(
  isCommandBlock,
);

describe('the docs follow the doc-test convention (CONTRIBUTING.md)', () => {
  it('every command block of README.md and docs/*.md is run, or skipped with a reason', () => {
    expect(commandBlocks.map(conventionProblem).filter((p) => p !== null)).toEqual([]);
    expect(commandBlocks.filter((b) => modeOf(b) !== 'skip').length).toBeGreaterThan(5);
  });

  it('every input a command block names exists in the repository', () => {
    const named = commandBlocks.flatMap((block) =>
      block.body.flatMap((line) => {
        const command = line.startsWith('$ ') ? line.slice(2) : line;
        // Redirected input (`< file`) and paths into the repository's own folders.
        const inputs = [...command.matchAll(/(?:^|\s)<\s+([\w./-]+)/g)].map((m) => m[1]!);
        const paths = [
          ...command.matchAll(/(?:^|[\s'"=])((?:examples|docs|scripts|apps|libs|bin|test)\/[\w./*-]+)/g),
        ].map((m) => m[1]!);
        return [...inputs, ...paths].map((path) => ({ where: `${block.file}:${block.line}`, path }));
      }),
    );
    expect(named.length).toBeGreaterThan(3);
    const missing = named.filter(({ path }) => !existsSync(join(REPO, path.includes('*') ? dirname(path) : path)));
    expect(missing).toEqual([]);
  });
});

describe('parseBlocks', () => {
  const markdown = [
    'text',
    '<!-- doctest: server -->',
    '',
    '```console',
    '$ npx tokencircuit verify',
    'intact …',
    '```',
    '<!-- doctest: skip — runs until Ctrl+C; test/cli/demo.e2e.spec.ts covers tail -->',
    '```bash',
    'npx tokencircuit tail',
    '```',
    '```',
    'apps/fleet  npm start',
    '```',
  ].join('\n');
  const blocks = parseBlocks('x.md', markdown);

  it('reads fences, languages and the marker above (blank lines allowed between)', () => {
    expect(blocks.map((b) => [b.line, b.lang, b.marker])).toEqual([
      [4, 'console', { mode: 'server', reason: '' }],
      [9, 'bash', { mode: 'skip', reason: 'runs until Ctrl+C; test/cli/demo.e2e.spec.ts covers tail' }],
      [12, '', null],
    ]);
    expect(blocks.map(isCommandBlock)).toEqual([true, true, false]);
    expect(blocks.filter(isCommandBlock).map(conventionProblem)).toEqual([null, null]);
  });

  it('refuses a shell block that is neither run nor skipped, a reasonless skip and an unknown mode', () => {
    const [bare] = parseBlocks('y.md', '```sh\nnpm run migrate\n```');
    expect(conventionProblem(bare!)).toMatch(/^y\.md:1: a sh command block is neither run nor skipped/);
    const [reasonless] = parseBlocks('y.md', '<!-- doctest: skip -->\n```bash\nnpm start\n```');
    expect(conventionProblem(reasonless!)).toMatch(/needs a reason/);
    expect(() => parseBlocks('y.md', '<!-- doctest: later -->\n```console\n$ ls\n```')).toThrow(/unknown doctest mode/);
  });
});

describe('parseConsole', () => {
  it('splits commands, their output, continuation lines and [exit N]', () => {
    const body = ['$ echo a \\', '  b', 'a b', '', '$ false', '[exit 1]', '$ true'];
    expect(parseConsole(body, 10)).toEqual([
      { line: 11, command: 'echo a \n  b', expected: ['a b'], exitCode: 0 },
      { line: 15, command: 'false', expected: [], exitCode: 1 },
      { line: 17, command: 'true', expected: [], exitCode: 0 },
    ]);
  });
});

describe('outputMatches', () => {
  it('matches line by line, with … for what varies inside a line', () => {
    expect(outputMatches(['head #… f12…'], ['head #14 f12ab8'])).toBe(true);
    expect(outputMatches(['head #… f12…'], ['head #14 e12ab8'])).toBe(false);
    expect(outputMatches(['a.b'], ['axb'])).toBe(false);
    expect(outputMatches(['a'], ['a', 'b'])).toBe(false);
  });

  it('a line of only … matches any number of lines, none included', () => {
    expect(outputMatches(['a', '…', 'd'], ['a', 'b', 'c', 'd'])).toBe(true);
    expect(outputMatches(['a', '  …', 'd'], ['a', 'd'])).toBe(true);
    expect(outputMatches(['a', '…'], ['a', 'b', 'c'])).toBe(true);
    expect(outputMatches(['a', '…', 'd'], ['a', 'b', 'c'])).toBe(false);
  });

  it('ignores trailing spaces and trailing blank lines', () => {
    expect(outputMatches(['a  '], ['a', '', ''])).toBe(true);
  });
});
