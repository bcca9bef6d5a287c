import type { CliIo, CliStream } from './cli-io.js';
import { colours, coloursEnabled, type Colours } from './colours.js';

/**
 * Where a command's results go. In --json mode every result is one JSON object on one line of
 * stdout and human text is suppressed; otherwise results are human lines, coloured on a terminal.
 * Notes (progress, hints) always go to stderr so stdout stays parseable.
 */
export class Output {
  readonly c: Colours;

  constructor(
    private readonly io: Pick<CliIo, 'stdout' | 'stderr' | 'env'>,
    readonly json: boolean,
  ) {
    this.c = colours(coloursEnabled({ json, isTTY: io.stdout.isTTY, env: io.env }));
  }

  /** One machine-readable result (printed only with --json). */
  record(value: unknown): void {
    if (this.json) this.write(this.io.stdout, `${JSON.stringify(value)}\n`);
  }

  /** Human-readable result text (printed only without --json). */
  text(...lines: string[]): void {
    this.textLines(lines);
  }

  /** Human-readable result text as one array: reports can run to more lines than a call takes arguments. */
  textLines(lines: readonly string[]): void {
    if (!this.json) this.write(this.io.stdout, lines.map((line) => `${line}\n`).join(''));
  }

  /** A note for the person running the command, on stderr in both modes. */
  note(line: string): void {
    this.write(this.io.stderr, `${line}\n`);
  }

  get stderr(): CliStream {
    return this.io.stderr;
  }

  get interactive(): boolean {
    return !this.json && this.io.stderr.isTTY === true;
  }

  private write(stream: CliStream, text: string): void {
    stream.write(text);
  }
}
