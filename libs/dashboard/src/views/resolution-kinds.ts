/**
 * The resolutions the dialog offers, each with what it means, in the words of the table the projector
 * applies (RESOLUTION_MEANINGS in libs/governance, docs/cli.md "What each resolution means"). The page
 * does not bundle the core: a kind that does not apply to the key is refused by the API, whose message
 * names the kinds that do, and the dialog shows it.
 */
export const RESOLVE_CHOICES = [
  {
    kind: 'reset',
    label: 'Reset (fixed elsewhere)',
    help: 'Any key except a write whose effect is still unknown: ends the episode and forgets its counters; agents may try again.',
  },
  {
    kind: 'auth_granted',
    label: 'Authorization granted',
    help: 'Permission keys: the access was granted; ends the episode, every agent of the principal may try again.',
  },
  {
    kind: 'resource_confirmed',
    label: 'Resource confirmed',
    help: 'Missing-resource keys: the resource exists, the identifier may be retried. On an uncertain write: the written resource exists, the same as "Write confirmed".',
  },
  {
    kind: 'effect_confirmed',
    label: 'Write confirmed (it happened)',
    help: 'Uncertain writes: the write took effect. Ends the episode and closes the intent as done: the agent is told the write exists and a re-send is refused.',
  },
  {
    kind: 'effect_absent',
    label: 'Write absent (it did not happen)',
    help: 'Uncertain writes: the write did not take effect. Ends the episode and allows exactly one re-send of the intent.',
  },
] as const;

export type ResolveChoice = (typeof RESOLVE_CHOICES)[number]['kind'];
