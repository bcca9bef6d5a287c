import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { usageError } from './exit-codes.js';

/** One physical line of a JSON-lines input, numbered from 1 as editors number them. */
export interface InputLine {
  readonly line: number;
  readonly text: string;
}

/**
 * The non-blank lines of a file (or of stdin for "-" or no file), with their line numbers. A missing
 * file is a usage error; stdin left at a terminal gets a hint, since the command is waiting for input.
 */
export async function* inputLines(
  file: string | undefined,
  stdin: Readable & { readonly isTTY?: boolean },
  hint: (text: string) => void,
  signal?: AbortSignal,
): AsyncGenerator<InputLine> {
  const source = file === undefined || file === '-' ? stdin : await openFile(file);
  if (source === stdin && stdin.isTTY) hint('reading JSON lines from stdin (end with Ctrl+D)…');
  const reader = createInterface({ input: source, crlfDelay: Infinity });
  // Ctrl+C while waiting for input ends the input: what was read so far is still processed.
  signal?.addEventListener('abort', () => reader.close(), { once: true });
  let line = 0;
  for await (const text of reader) {
    line += 1;
    if (text.trim() !== '') yield { line, text };
  }
}

async function openFile(file: string): Promise<Readable> {
  const stream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) => reject(usageError(`cannot read ${file}: ${error.message}`)));
  });
  return stream;
}
