import { RESOLUTION_MEANINGS, RESOLUTION_SITUATIONS } from '@tokencircuit/governance';

/**
 * `resolve --help`'s table: per kind of key, what each resolution means (RESOLUTION_MEANINGS, the rules
 * the projector applies). A kind a key's row does not list is refused by the API for that key.
 */
export function resolutionHelp(): string {
  const lines = ['', 'What each resolution means, per kind of key (a kind not listed is refused for that key):'];
  for (const situation of RESOLUTION_SITUATIONS) {
    lines.push(`  ${situation.replace(/_/g, ' ')}:`);
    for (const [kind, meaning] of Object.entries(RESOLUTION_MEANINGS[situation])) {
      if (kind === 'acknowledged') continue;
      lines.push(`    ${kind.padEnd(18)} ${meaning}`);
    }
  }
  lines.push('Every resolution ends the episode (the pager incident resolves); `ack` only stops the paging.');
  return lines.join('\n');
}
