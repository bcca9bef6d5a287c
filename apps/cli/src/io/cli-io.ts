import type { Readable, Writable } from 'node:stream';

/** A writable the CLI prints to; `isTTY` decides colours and progress bars. */
export type CliStream = Writable & { readonly isTTY?: boolean; readonly columns?: number };

/** Everything a command touches of its process, passed in so specs can run commands in-process. */
export interface CliIo {
  readonly stdin: Readable & { readonly isTTY?: boolean };
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on Ctrl+C: long-running commands (tail, demo, replay) stop at the next safe point. */
  readonly signal: AbortSignal;
}
