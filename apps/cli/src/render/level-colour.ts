import type { DecisionLevel } from '@tokencircuit/contracts';
import type { Colours } from '../io/colours.js';

/** The level as a fixed-width tag: page is the loudest, advise the quietest. */
export function levelTag(level: DecisionLevel | string, c: Colours): string {
  const tag = level.toUpperCase().padEnd(6);
  switch (level) {
    case 'page':
      return c.bold(c.magenta(tag));
    case 'block':
      return c.bold(c.red(tag));
    case 'advise':
      return c.yellow(tag);
    default:
      return tag;
  }
}
