import { parseArgs } from 'node:util';

/** Reads `--name value` integer options; anything else than a positive integer is a clear error, not a NaN run. */
export function positiveIntOptions<const N extends string>(
  defaults: Record<N, number>,
  argv = process.argv.slice(2),
): Record<N, number> {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(defaults).map((name) => [name, { type: 'string' as const }])),
    strict: true,
  });
  const parsed = { ...defaults };
  for (const name of Object.keys(defaults) as N[]) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`--${name} needs a positive integer, got "${String(raw)}"`);
    parsed[name] = value;
  }
  return parsed;
}
