/**
 * Text Postgres can store: U+0000 is refused by every text type and by jsonb, and an unpaired UTF-16
 * surrogate is not Unicode at all (jsonb refuses its escape; UTF-8 encoders silently mangle it). An
 * error message from a binary protocol can carry either, and refusing the event would lose a real
 * failure, so both become U+FFFD (the replacement character, as TextDecoder does), leaving the rest as is.
 */
// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\ufffd');
}

/** JSON text that may hold such characters: `\u0000` or a surrogate escape (raw ones cannot be valid UTF-8). */
const MAY_HOLD_UNSTORABLE = /\\u(?:0000|[dD][89a-fA-F])/;

export function mayHoldUnstorableText(json: string): boolean {
  return MAY_HOLD_UNSTORABLE.test(json);
}

/** `value` with storableText applied to every string, names included; the same object when nothing changes. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) {
    const items = value.map(storableJson);
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([name, member]) => {
      const entry = [storableText(name), storableJson(member)] as const;
      if (entry[0] !== name || entry[1] !== member) changed = true;
      return entry;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}
