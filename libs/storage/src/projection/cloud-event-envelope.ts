/** The columns of an agent_events row that its stored CloudEvent's envelope repeats. */
export interface EnvelopeColumns {
  readonly id: string;
  readonly source: string;
  /** The agent event type (`tool_call.outcome`), the CloudEvent type without its prefix and version. */
  readonly type: string;
  /** The text written to occurred_at. */
  readonly time: string;
  readonly tenant: string;
  readonly run: string | null;
}

/** Where a stored CloudEvent's text leaves its envelope, and the one envelope field no column holds. */
export interface EnvelopeCut {
  /** UTF-16 units of the text the columns rebuild; the prefix is ASCII, so also characters and bytes. */
  readonly length: number;
  /** The CloudEvent type's version (`v3` of `dev.tokencircuit.tool_call.outcome.v3`). */
  readonly typeVersion: string;
}

// Mirrors tokencircuit_cloud_event (migration 0048) character for character. Literal on purpose: were these
// taken from the contracts and one changed, rows cut by this build would no longer rebuild to their text;
// literal, a CloudEvent of another shape simply fails the comparison and is stored whole.
const SPEC_VERSION = '1.0';
const TYPE_PREFIX = 'dev.tokencircuit.';
const DATA_CONTENT_TYPE = 'application/json';

// Printable ASCII without `"` and `\`: JSON.stringify writes such a string as it is between quotes, and the
// SQL concatenates it the same way; UTF-16 units, characters and bytes agree, so the SQL cuts where this did.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const VERSION = /^[A-Za-z0-9]{1,16}$/;
// What to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') writes; toISOString must
// agree, which rules out what Postgres would read as another instant (24:00, 23:59:60, 30 February).
const CANONICAL_TIME = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * How much of `text` (a stored CloudEvent, as JSON.stringify wrote it) its row's columns rebuild, or null
 * when they would not rebuild it exactly: the row then keeps the whole text. The envelope is specversion, id,
 * source, type, time, datacontenttype, tenantid and runid, in the order agentEventToCloudEvent writes them;
 * what follows (traceparent, data) is stored as the row's tail. Compared as text, never assumed: whatever
 * wrote `text`, a row is cut only where the rebuilt prefix is byte for byte the text's own.
 */
export function envelopeCut(columns: EnvelopeColumns, text: string): EnvelopeCut | null {
  const { id, source, type, time, tenant, run } = columns;
  if (!PLAIN.test(id) || !PLAIN.test(source) || !PLAIN.test(type) || !PLAIN.test(tenant)) return null;
  if (run !== null && !PLAIN.test(run)) return null;
  if (!CANONICAL_TIME.test(time)) return null;
  const instant = Date.parse(time);
  if (Number.isNaN(instant) || new Date(instant).toISOString() !== time) return null;

  const head = `{"specversion":"${SPEC_VERSION}","id":"${id}","source":"${source}","type":"${TYPE_PREFIX}${type}.`;
  if (!text.startsWith(head)) return null;
  const versionEnd = text.indexOf('"', head.length);
  if (versionEnd < 0) return null;
  const typeVersion = text.slice(head.length, versionEnd);
  if (!VERSION.test(typeVersion)) return null;
  const rest =
    `","time":"${time}","datacontenttype":"${DATA_CONTENT_TYPE}","tenantid":"${tenant}"` +
    (run === null ? '' : `,"runid":"${run}"`);
  if (!text.startsWith(rest, versionEnd)) return null;
  return { length: versionEnd + rest.length, typeVersion };
}
