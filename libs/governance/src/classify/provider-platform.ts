import { concurrencyConflict, invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;

/*
 * Platform APIs whose codes are read only when the outcome names the provider (SCOPED_PROVIDER_GROUPS): their names
 * are common words ("Conflict", "Expired"), numbers (Twilio's 21610, Discord's 50001) or another vendor's code with
 * another meaning, so outside their provider they say nothing.
 */

/**
 * Kubernetes API Status reasons (metav1.StatusReason): the "reason" of a Status body, and kubectl's
 * "Error from server (NotFound): …". Conflict is a catch-all: it is both the optimistic-concurrency answer ("the
 * object has been modified; please apply your changes to the latest version and try again", which the phrase table
 * reads as a version conflict) and other state conflicts. Expired: the watch or list continuation asked for a
 * resource version the server no longer keeps; the documented remedy is a fresh list, then watch from it.
 */
export const KUBERNETES: ProviderGroup = {
  provider: 'kubernetes',
  aliases: ['k8s', 'kubectl', 'kube', 'openshift'],
  source:
    'https://pkg.go.dev/k8s.io/apimachinery/pkg/apis/meta/v1#StatusReason, https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes',
  entries: [
    [missingResource(), ['NotFound']],
    [invariant('rejected', dup), ['AlreadyExists']],
    [invariant('rejected', { generic: true }), ['Conflict']],
    [permission(), ['Forbidden', 'Unauthorized']],
    [
      validation(),
      ['Invalid', 'BadRequest', 'MethodNotAllowed', 'NotAcceptable', 'UnsupportedMediaType', 'RequestEntityTooLarge'],
    ],
    [transient('rejected'), ['TooManyRequests', 'Expired']],
    [transient('indeterminate'), ['ServerTimeout', 'Timeout', 'ServiceUnavailable', 'InternalError']],
  ],
};

/**
 * Microsoft Graph error codes (the "code" of the error object; the SDKs and MCP servers print "code: message").
 * quotaLimitReached is the user's storage quota (507): a person must free space or buy more.
 */
export const MICROSOFT_GRAPH: ProviderGroup = {
  provider: 'microsoft-graph',
  aliases: ['msgraph', 'ms-graph', 'microsoftgraph', 'onedrive', 'sharepoint', 'outlook', 'microsoft-365', 'm365'],
  source: 'https://learn.microsoft.com/en-us/graph/errors',
  entries: [
    [missingResource(), ['itemNotFound']],
    [permission(), ['accessDenied', 'unauthenticated', 'quotaLimitReached']],
    [transient('rejected'), ['activityLimitReached']],
    [validation(), ['invalidRequest', 'invalidRange', 'malformedRequest', 'notSupported']],
    [invariant('rejected', dup), ['nameAlreadyExists']],
    // "The resource being updated has changed since the caller last read it, usually an eTag mismatch."
    [concurrencyConflict(), ['resourceModified']],
    // "The service is not available. Try the request again after a delay."
    [transient('indeterminate'), ['serviceNotAvailable']],
    [transient('indeterminate', { generic: true }), ['generalException']],
  ],
};

/**
 * Notion API error codes. conflict_error: "The transaction could not be completed, potentially due to a data
 * collision. Make sure the parameters are up to date and try again": a version conflict, re-read and retry (not the
 * AI SDKs' ConflictError, which shares its normalised name in the global table).
 */
export const NOTION: ProviderGroup = {
  provider: 'notion',
  source: 'https://developers.notion.com/reference/status-codes',
  entries: [
    [missingResource(), ['object_not_found']],
    [concurrencyConflict(), ['conflict_error']],
    [transient('rejected'), ['rate_limited']],
    [permission(), ['unauthorized', 'restricted_resource']],
    [validation(), ['validation_error', 'invalid_json', 'invalid_request_url', 'invalid_request', 'missing_version']],
    [transient('indeterminate'), ['service_unavailable', 'database_connection_unavailable', 'gateway_timeout']],
    [transient('indeterminate', { generic: true }), ['internal_server_error']],
  ],
};

/**
 * Shopify Admin GraphQL error extension codes (errors[].extensions.code; a throttled query answers 200 with
 * THROTTLED). MAX_COST_EXCEEDED: one query costs more than the single-query limit, so no wait lets it through:
 * the query must change.
 */
export const SHOPIFY: ProviderGroup = {
  provider: 'shopify',
  source:
    'https://shopify.dev/docs/api/admin-graphql#status_and_error_codes, https://shopify.dev/docs/api/usage/rate-limits',
  entries: [
    [transient('rejected'), ['THROTTLED']],
    [permission(), ['ACCESS_DENIED', 'SHOP_INACTIVE']],
    [validation(), ['MAX_COST_EXCEEDED']],
    [transient('indeterminate', { generic: true }), ['INTERNAL_SERVER_ERROR']],
  ],
};

/**
 * Twilio's numeric error codes (the "code" of the REST error body and RestException.code;
 * https://www.twilio.com/docs/api/errors). 21610: the recipient replied STOP; only they can opt in again (START),
 * so nothing is sent to them until then. 21608: a trial account may only send to verified numbers.
 */
export const TWILIO: ProviderGroup = {
  provider: 'twilio',
  source: 'https://www.twilio.com/docs/api/errors',
  entries: [
    [permission(), ['20003', '21610', '21608']],
    [missingResource(), ['20404']],
    [transient('rejected'), ['20429']],
    [validation(), ['21211', '21614']],
  ],
};

/**
 * Discord's JSON error codes (the "code" of the error body; discord.js prints "DiscordAPIError[10008]: Unknown
 * Message", discord.py "404 Not Found (error code: 10008): Unknown Message"). 10xxx: an unknown object; 50001 and
 * 50013: the bot lacks access or a permission; 50007: the user accepts no messages from the bot.
 */
export const DISCORD: ProviderGroup = {
  provider: 'discord',
  source: 'https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes',
  entries: [
    [missingResource(), ['10003', '10004', '10007', '10008', '10011', '10013', '10014', '10015', '10062', '10063']],
    [permission(), ['40001', '50001', '50007', '50013']],
    [validation(), ['50006', '50035']],
    [invariant('rejected', dup), ['40060']],
    [transient('rejected'), ['20028', '130000']],
  ],
};
