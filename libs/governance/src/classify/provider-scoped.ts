import { meaningOf, type ErrorMeaning, type Semantics } from './error-meaning.js';
import { SALESFORCE_SCOPED } from './provider-business.js';
import { CASSANDRA_SCOPED } from './provider-cassandra.js';
import { DISCORD, KUBERNETES, MICROSOFT_GRAPH, NOTION, SHOPIFY, TWILIO } from './provider-platform.js';
import { OCI_DISTRIBUTION } from './provider-registry.js';
import { FRESHDESK, MAILCHIMP, META_GRAPH, X_TWITTER, ZOOM } from './provider-social.js';
import { nameKey, type ProviderGroup } from './provider-table.js';

/**
 * Tables read only when the outcome names their provider (or one of its aliases), ahead of every other table: their
 * names are common words ("Conflict", "Expired"), numbers (Twilio's 21610, Discord's 50001) or another vendor's code
 * with another meaning (Salesforce's REQUEST_LIMIT_EXCEEDED is a day's allocation, AWS's RequestLimitExceeded a
 * per-second throttle), so outside their provider they say nothing.
 */
export const SCOPED_PROVIDER_GROUPS: readonly ProviderGroup[] = [
  KUBERNETES,
  MICROSOFT_GRAPH,
  NOTION,
  SHOPIFY,
  TWILIO,
  DISCORD,
  SALESFORCE_SCOPED,
  CASSANDRA_SCOPED,
  OCI_DISTRIBUTION,
  META_GRAPH,
  X_TWITTER,
  ZOOM,
  MAILCHIMP,
  FRESHDESK,
];

/** Per provider and alias: normalised name → [documented spelling, meaning]; the first meaning is kept. */
const SCOPED: ReadonlyMap<string, ReadonlyMap<string, readonly [string, Semantics]>> = (() => {
  const byProvider = new Map<string, Map<string, readonly [string, Semantics]>>();
  for (const group of SCOPED_PROVIDER_GROUPS) {
    for (const provider of [group.provider, ...(group.aliases ?? [])]) {
      const names = byProvider.get(provider) ?? new Map<string, readonly [string, Semantics]>();
      byProvider.set(provider, names);
      for (const [semantics, list] of group.entries)
        for (const name of list) if (!names.has(nameKey(name))) names.set(nameKey(name), [name, semantics]);
    }
  }
  return byProvider;
})();

const tableOf = (provider: string | null) => (provider === null ? undefined : SCOPED.get(provider.toLowerCase()));

/** Whether the provider has a scoped table (so that the formats below are worth reading). */
export const hasScopedTable = (provider: string | null): boolean => tableOf(provider) !== undefined;

/** A name or code in the declared provider's scoped table ("Conflict" from Kubernetes, Twilio's "21610"), else null. */
export function scopedProviderMeaning(provider: string | null, name: string): ErrorMeaning | null {
  const names = tableOf(provider);
  if (names === undefined) return null;
  const bare = name.trim();
  const known = names.get(nameKey(bare));
  return known ? meaningOf(known[1], `provider:${known[0]}`) : null;
}

// The forms that are unmistakably a code when they stand bare in a text, in the case the provider documents them:
// snake_case (Notion's "conflict_error"), upper snake case (Shopify's "MAX_COST_EXCEEDED") and lower camel case with
// an inner capital (Microsoft Graph's "quotaLimitReached"). Numbers and single words are read only in the formats
// providerCodesIn knows.
const CODE_TOKEN =
  /(?<![\w./-])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)(?![\w/-]|\.\w)/g;

/**
 * The first code of the declared provider's scoped table that the text names as a word, spelled as documented:
 * "quotaLimitReached: The user has reached their quota limit." from a Graph tool, "conflict_error: …" from Notion's.
 */
export function scopedCodeInText(provider: string | null, text: string | null): ErrorMeaning | null {
  const names = tableOf(provider);
  if (names === undefined || text === null) return null;
  for (const [token] of text.matchAll(CODE_TOKEN)) {
    const known = names.get(nameKey(token));
    if (known !== undefined && known[0] === token) return meaningOf(known[1], `provider:${token}`);
  }
  return null;
}

// kubectl prints an API Status error as "Error from server (<reason>): <message>"; discord.js as
// "DiscordAPIError[<code>]: <message>", discord.py as "<status> <phrase> (error code: <code>): <message>"; Twilio's
// and Discord's bodies carry a numeric "code".
const KUBECTL_REASON = /\bError from server \(([A-Z][A-Za-z]{1,40})\)/;
const DISCORD_JS = /\bDiscordAPIError\[(\d{1,7})\]/;
const DISCORD_PY = /\(error code: (\d{1,7})\)/;
const BODY_NUMERIC_CODE = /["']code["']\s*:\s*(\d{1,7})\b/g;
// Meta's Graph API prefixes its message with the code: "(#100) Invalid parameter", "(#131047) Re-engagement message".
const GRAPH_CODE = /\(#(\d{1,7})\)/;
// tweepy prints each of X's v1.1 errors[] entries on its own line as "<code> - <message>" after the status line.
const TWEEPY_CODE = /^(\d{1,3}) - \S/m;
// An X API v2 problem names its type by URI: "https://api.twitter.com/2/problems/usage-capped".
const X_PROBLEM = /\/2\/problems\/([a-z][a-z-]{1,60}[a-z])\b/;
// A problem+json body's "title" (RFC 9457), which Mailchimp's errors glossary names its errors by ("Member Exists").
const BODY_TITLE = /["']title["']\s*:\s*["']([A-Z][A-Za-z ]{2,60})["']/;
// The same title leading a text, as an SDK or MCP tool prints "title: detail" ("Member Exists: a@b.c is already a list
// member.").
const LEADING_TITLE = /^([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*){1,4}): /;

/** The codes a text names in formats only a provider's own table can read (see above), in order of appearance. */
export function providerCodesIn(text: string | null): string[] {
  if (text === null) return [];
  const found: string[] = [];
  const kubectl = text.includes('Error from server (') ? KUBECTL_REASON.exec(text) : null;
  if (kubectl) found.push(kubectl[1]!);
  const discord =
    (text.includes('DiscordAPIError[') ? DISCORD_JS.exec(text) : null) ??
    (text.includes('(error code: ') ? DISCORD_PY.exec(text) : null);
  if (discord) found.push(discord[1]!);
  const graph = text.includes('(#') ? GRAPH_CODE.exec(text) : null;
  if (graph) found.push(graph[1]!);
  const tweepy = text.includes(' - ') ? TWEEPY_CODE.exec(text) : null;
  if (tweepy) found.push(tweepy[1]!);
  const problem = text.includes('/2/problems/') ? X_PROBLEM.exec(text) : null;
  if (problem) found.push(problem[1]!);
  const title = (text.includes('title') ? BODY_TITLE.exec(text) : null) ?? LEADING_TITLE.exec(text);
  if (title) found.push(title[1]!);
  if (text.includes('code')) for (const [, n] of text.matchAll(BODY_NUMERIC_CODE)) found.push(n!);
  return found;
}
