import pc from 'picocolors';

export type Colours = ReturnType<typeof pc.createColors>;

/**
 * Colours only for a person at a terminal: never in --json output, never when NO_COLOR is set to
 * anything non-empty (no-color.org), never when stdout is a pipe or a file.
 */
export function coloursEnabled(options: {
  readonly json: boolean;
  readonly isTTY: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}): boolean {
  if (options.json) return false;
  if ((options.env.NO_COLOR ?? '') !== '') return false;
  return options.isTTY === true;
}

export const colours = (enabled: boolean): Colours => pc.createColors(enabled);
