import { storableText } from './storable-text.js';

/**
 * The one text rule for identifiers: every string that names something a key, a filter or a lookup is
 * derived from (tenant, event id, agent, run, call and intent ids, tool, resource class and id, principal,
 * auth scope, idempotency key, a resolution's key id and operator), applied by the contract's schemas at
 * every door that reads one — HTTP ingest, the Kafka decoder, preflight, resolutions, the MCP gateway — so
 * what one door stores is what another door looks up.
 *
 * The rule (docs/security.md, "One text rule for identifiers"):
 * - A lone UTF-16 surrogate becomes U+FFFD. It is not Unicode: a Kafka header (UTF-8) already carries it
 *   as U+FFFD, and Postgres cannot store it; refusing it at one door and replacing it at another is how
 *   a blocked key was reachable under its original spelling.
 * - U+0000 becomes U+FFFD: no Postgres text type can hold it. Replacing (not refusing) keeps every door
 *   alike — a Kafka record cannot be answered with a 400, only parked, and a parked failure is a lost
 *   one — and a preflight asked in the original words finds the stored key instead of failing open.
 *   Two spellings that differ only there ("a\0", "a\uFFFD") name one key: the merge can only widen a
 *   block, never open one.
 * - Nothing else changes: no Unicode normalisation (NFC/NFKC), no case folding, no trimming. The
 *   systems that own these names compare them as sequences of code points or bytes (ext4 and S3 keys,
 *   SQL identifiers, URLs): "é" precomposed and decomposed are two files there, and NFC would merge their
 *   keys, blocking one resource for another's failure and printing an id the agent never used.
 *
 * It keeps the length in UTF-16 units, so a length limit judges the same text before and after; the
 * byte-counted key limit (state-key-size.ts) is judged on the replaced text. Idempotent.
 */
export function identifierText(text: string): string {
  return storableText(text);
}
