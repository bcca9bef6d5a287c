/**
 * A console block as a list of commands, each with the output the docs show. `$ ` starts a command,
 * a trailing `\` continues it on the next line; the lines up to the next command are its output. A
 * last output line `[exit N]` says the command exits N (default 0).
 */

export interface DocCommand {
  /** 1-based line in the Markdown file. */
  readonly line: number;
  readonly command: string;
  /** The output lines the docs show; empty = the docs show none, so none is compared. */
  readonly expected: readonly string[];
  readonly exitCode: number;
}

const EXIT_LINE = /^\[exit (\d+)\]$/;

export function parseConsole(body: readonly string[], firstLine: number): DocCommand[] {
  const commands: { line: number; command: string; output: string[] }[] = [];
  for (let i = 0; i < body.length; i++) {
    const text = body[i]!;
    if (text.startsWith('$ ')) {
      let command = text.slice(2);
      const line = firstLine + 1 + i;
      while (command.endsWith('\\') && i + 1 < body.length) command = `${command.slice(0, -1)}\n${body[++i]!}`;
      commands.push({ line, command, output: [] });
    } else if (commands.length > 0) {
      commands[commands.length - 1]!.output.push(text);
    }
  }
  return commands.map(({ line, command, output }) => {
    while (output.length > 0 && output[output.length - 1]!.trim() === '') output.pop();
    const exit = output.length > 0 ? EXIT_LINE.exec(output[output.length - 1]!.trim()) : null;
    return {
      line,
      command,
      expected: exit ? output.slice(0, -1) : output,
      exitCode: exit ? Number(exit[1]) : 0,
    };
  });
}
