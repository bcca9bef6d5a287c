/**
 * The fenced blocks of a Markdown file, with the doc-test marker written above each (CONTRIBUTING.md,
 * "Docs that run"). A command block is one a reader would paste into a shell: a console, bash, sh or
 * shell fence, or any fence whose first line is a prompt (`$ `) or starts with `npx ` / `npm `.
 */

export type DocTestMode = 'run' | 'server' | 'skip';

export interface DocBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly body: readonly string[];
  /** The marker comment directly above (blank lines allowed between), or null. */
  readonly marker: { readonly mode: DocTestMode; readonly reason: string } | null;
}

const FENCE = /^(```+|~~~+)\s*([\w-]*)/;
const MARKER = /^<!--\s*doctest:\s*(\w+)\s*(.*?)\s*-->\s*$/;
const SHELL_LANGS = new Set(['console', 'bash', 'sh', 'shell', 'zsh']);

export function parseBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(fence); i++) body.push(lines[i]!);
    blocks.push({ file, line: start + 1, lang: open[2] ?? '', body, marker: markerAbove(file, lines, start) });
  }
  return blocks;
}

function markerAbove(file: string, lines: readonly string[], fenceIndex: number): DocBlock['marker'] {
  let j = fenceIndex - 1;
  while (j >= 0 && lines[j]!.trim() === '') j--;
  const found = j >= 0 ? MARKER.exec(lines[j]!.trim()) : null;
  if (!found) return null;
  const mode = found[1]!;
  if (mode !== 'run' && mode !== 'server' && mode !== 'skip') {
    throw new Error(`${file}:${j + 1}: unknown doctest mode "${mode}" (run, server or skip)`);
  }
  // "skip — reason" and "skip: reason" read alike; the reason is what follows the punctuation.
  return { mode, reason: found[2]!.replace(/^[—:-]\s*/, '') };
}

export function isCommandBlock(block: DocBlock): boolean {
  if (SHELL_LANGS.has(block.lang)) return true;
  const first = block.body.find((l) => l.trim() !== '')?.trim() ?? '';
  return first.startsWith('$ ') || first.startsWith('npx ') || first.startsWith('npm ');
}

/** Why a command block breaks the convention, or null when it is executed or skipped with a reason. */
export function conventionProblem(block: DocBlock): string | null {
  const where = `${block.file}:${block.line}`;
  if (block.marker?.mode === 'skip') {
    return block.marker.reason.length < 10 ? `${where}: a skipped block needs a reason (what covers it instead)` : null;
  }
  if (block.lang !== 'console') {
    return `${where}: a ${block.lang || 'plain'} command block is neither run nor skipped: make it a console block with "$ " prompts, or mark it <!-- doctest: skip — why -->`;
  }
  if (!block.body.some((l) => l.startsWith('$ '))) return `${where}: a console block without a "$ " command`;
  return null;
}

/** The mode a command block runs in: console blocks run offline unless marked `server`. */
export const modeOf = (block: DocBlock): DocTestMode => block.marker?.mode ?? 'run';
