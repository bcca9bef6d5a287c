import { invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/*
 * Social, messaging and workspace APIs whose codes are bare numbers (Meta's 4, 17, 190; X's 88, 187; Zoom's 124,
 * 300), slugs or titles ("Member Exists"): read only when the outcome names the provider (SCOPED_PROVIDER_GROUPS).
 */

/**
 * Meta's Graph API error codes (the "code" of the error object; the SDKs and MCP servers print the message, which Graph
 * prefixes with "(#<code>)"), shared by Facebook, Instagram, Messenger and the WhatsApp Cloud API, which is built on
 * the Graph API. Graph error handling: OAuthException / 190 and 102 mean an expired, revoked or invalid access token
 * (get a new one, whatever the subcode: 458, 460, 463, 467); 10, 3 and 200–299 a permission not granted or revoked;
 * 4, 17, 32, 341, 613 and the business use case limits 80001–80014 throttling ("wait and retry"); 1 and 2 a temporary
 * issue; 100 "Invalid parameter" a catch-all whose text refines it (subcode 33: the object does not exist); 506 a
 * duplicate post; 1609005 a link Graph could not scrape. 368 is a block for policy violations: the WhatsApp codes page
 * says the account "has been restricted or disabled for violating a platform policy", so a person must act.
 * WhatsApp Cloud API codes: 130429 throughput and 131056 pair rate limits refill; 131048 "Spam rate limit hit" is a
 * restriction for messages blocked or flagged as spam (check the quality rating), not a rate; 131031 a locked
 * account; 131005 access denied; 131008, 131009, 131051, 132000, 132005, 132007, 132012 the request or template
 * parameters; 132001 a template that does not exist; 131000, 131016, 133004 temporary.
 */
export const META_GRAPH: ProviderGroup = {
  provider: 'meta',
  aliases: [
    'facebook',
    'fb',
    'instagram',
    'messenger',
    'whatsapp',
    'whatsapp-cloud',
    'whatsapp-business',
    'meta-graph',
    'facebook-graph',
    'graph-api',
  ],
  source:
    'https://developers.facebook.com/docs/graph-api/guides/error-handling, https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes',
  entries: [
    [permission(), ['190', '102', '10', '3', '368', ...range(200, 299), '131031', '131048', '131005']],
    [transient('rejected'), ['4', '17', '32', '341', '613', ...range(80001, 80014), '130429', '131056']],
    [transient('indeterminate'), ['1', '2', '131016', '133004']],
    [transient('indeterminate', { generic: true }), ['131000']],
    [validation({ generic: true }), ['100']],
    [validation(), ['1609005', '131008', '131009', '131051', '132000', '132005', '132007', '132012']],
    [missingResource(), ['132001']],
    [invariant('rejected', dup), ['506']],
  ],
};

/**
 * X (Twitter) API: v2 problem types (the last segment of the problem's "type" URI,
 * https://api.twitter.com/2/problems/<type>) and v1.1 error codes (the "code" of errors[], which tweepy prints as
 * "187 - Status is a duplicate."). usage-capped is the monthly product cap (Post consumption), which no backoff
 * outlasts; 185 the user's daily status-update limit; 88 and 130 refill or pass.
 */
export const X_TWITTER: ProviderGroup = {
  provider: 'x',
  aliases: ['twitter', 'x-api', 'twitter-api', 'tweepy'],
  source:
    'https://docs.x.com/x-api/fundamentals/response-codes-and-errors, https://developer.x.com/en/support/x-api/error-troubleshooting',
  entries: [
    [missingResource(), ['resource-not-found', '34', '50', '144']],
    [
      permission(),
      [
        'not-authorized-for-resource',
        'client-forbidden',
        'unsupported-authentication',
        'usage-capped',
        'rule-cap',
        'disallowed-resource',
        '32',
        '63',
        '64',
        '89',
        '179',
        '185',
        '261',
        '326',
        '416',
      ],
    ],
    [validation(), ['invalid-request', 'invalid-rules', '186']],
    [invariant('rejected', dup), ['duplicate-rules', '139', '187', '327']],
    [transient('rejected'), ['88', '130']],
    [transient('indeterminate', { generic: true }), ['131']],
  ],
};

/**
 * Zoom API error codes (the body's numeric "code"): 124 an invalid access token, 4700/4711 a token without the
 * required scopes, 200 "No permission.", 1010 a user outside the account; 1001 a user that does not exist, 3001 a
 * meeting that does not exist or has expired; 300 a catch-all invalid request its text refines; 1005 an email already
 * in use.
 */
export const ZOOM: ProviderGroup = {
  provider: 'zoom',
  source: 'https://developers.zoom.us/docs/api/rest/error-definitions/',
  entries: [
    [permission(), ['124', '200', '1010', '4700', '4711']],
    [missingResource(), ['1001', '3001']],
    [validation({ generic: true }), ['300']],
    [invariant('rejected', dup), ['1005']],
  ],
};

/**
 * Mailchimp Marketing API errors, named by the problem's "title" (errors glossary). "Member Exists" is a contact
 * already on the list (PUT upserts); "Forgotten Email Not Subscribed" a contact permanently deleted (GDPR), who must
 * re-subscribe themselves; "Compliance Related" / "Member In Compliance State" a contact or account compliance
 * block.
 */
export const MAILCHIMP: ProviderGroup = {
  provider: 'mailchimp',
  aliases: ['mailchimp-marketing', 'mailchimp-transactional', 'mandrill'],
  source: 'https://mailchimp.com/developer/marketing/docs/errors/',
  entries: [
    [invariant('rejected', dup), ['Member Exists']],
    [missingResource(), ['Resource Not Found']],
    [
      validation(),
      [
        'Invalid Resource',
        'Bad Request',
        'Invalid Action',
        'Invalid Method Override',
        'Wrong Datacenter',
        'Method Not Allowed',
        'Resource Nested Too Deeply',
      ],
    ],
    [
      permission(),
      [
        'Forgotten Email Not Subscribed',
        'Member In Compliance State',
        'Compliance Related',
        'API Key Missing',
        'API Key Invalid',
        'Forbidden',
        'User Disabled',
      ],
    ],
    [transient('rejected'), ['Too Many Requests']],
  ],
};

/**
 * Freshdesk API error codes (errors[].code, or the body's "code"): require_feature is a feature the account's plan
 * lacks (upgrade), access_denied and invalid_credentials a denial, duplicate_value a unique field already taken.
 */
export const FRESHDESK: ProviderGroup = {
  provider: 'freshdesk',
  source: 'https://developers.freshdesk.com/api/#error',
  entries: [
    [
      permission(),
      ['require_feature', 'access_denied', 'invalid_credentials', 'account_suspended', 'password_lockout'],
    ],
    [invariant('rejected', dup), ['duplicate_value']],
    [
      validation(),
      [
        'missing_field',
        'invalid_value',
        'datatype_mismatch',
        'invalid_field',
        'invalid_json',
        'invalid_size',
        'incompatible_field',
        'readonly_field',
        'unsupported_content_type',
      ],
    ],
  ],
};
