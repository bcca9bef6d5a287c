import { redactArguments } from '@tokencircuit/governance';
import { cutText } from './cut-text.js';

/** One argument as a person reads it in a notification: its name and its value, redacted and short. */
export interface ShownArgument {
  readonly name: string;
  readonly value: string;
}

export const ARGUMENT_LIMITS = {
  /** Arguments shown; the rest are counted ("+3 more"). */
  count: 6,
  /** Characters of one value (a nested object is shown as compact JSON, then cut). */
  valueChars: 80,
  /** Characters of one name. */
  nameChars: 40,
} as const;

// Names that say "this identifies the thing acted on": an id, key, reference or number, in the casing
// conventions tools use (order_id, orderId, refund-ref, invoiceNo, ID). They come first.
const IDENTIFYING_NAME =
  /(?:^|[_\-.])(?:id|ids|key|ref|reference|number|no|uuid|sku|slug)$|[a-z0-9](?:Id|Ids|Key|Ref|Number|No|Uuid|ID)$|^(?:ID|UUID)$/;

/**
 * The call's arguments for a person deciding what to do: which refund, which customer, which file.
 * Secrets are removed first by the backend's own argument redaction (libs/governance redactArguments:
 * secret-named values become markers, credentials inside strings are cut out), then names that identify
 * (ids, keys, references, numbers) come first, then the rest in the call's order, each value cut without
 * splitting a character. Returns [] for no arguments.
 */
export function identifyingArguments(args: Readonly<Record<string, unknown>> | null): {
  readonly shown: readonly ShownArgument[];
  readonly more: number;
} {
  if (args === null) return { shown: [], more: 0 };
  const clean = redactArguments(args);
  const redacted = Object.entries(clean);
  // An api_key is a key of another kind: a value the redaction changed (a secret, or one inside it) never
  // counts as identifying, whatever its name.
  const identifies = (name: string) => IDENTIFYING_NAME.test(name) && clean[name] === args[name];
  const ordered = [...redacted.filter(([name]) => identifies(name)), ...redacted.filter(([name]) => !identifies(name))];
  const shown = ordered.slice(0, ARGUMENT_LIMITS.count).map(([name, value]) => ({
    name: cutText(name, ARGUMENT_LIMITS.nameChars),
    value: cutText(valueText(value), ARGUMENT_LIMITS.valueChars),
  }));
  return { shown, more: Math.max(0, ordered.length - shown.length) };
}

/** `order_id=ord_1, amount_cents=1200 (+2 more)`: the arguments on one line. */
export function argumentsLine(args: { readonly shown: readonly ShownArgument[]; readonly more: number }): string {
  const line = args.shown.map((a) => `${a.name}=${a.value}`).join(', ');
  return args.more > 0 ? `${line} (+${args.more} more)` : line;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  return JSON.stringify(value) ?? String(value);
}

/** The shown arguments as a JSON object (name → value), with a count of those left out. */
export function argumentsObject(args: {
  readonly shown: readonly ShownArgument[];
  readonly more: number;
}): Record<string, string> {
  const shown = Object.fromEntries(args.shown.map((a) => [a.name, a.value]));
  return args.more > 0 ? { ...shown, '…': `${args.more} more` } : shown;
}
