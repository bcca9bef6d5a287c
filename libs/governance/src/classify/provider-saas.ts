import { invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;

/** Stripe error.type and error.code values. */
export const STRIPE: ProviderGroup = {
  provider: 'stripe',
  source:
    'https://docs.stripe.com/api/errors, https://docs.stripe.com/error-codes, https://docs.stripe.com/error-low-level',
  entries: [
    // A declined card or a wrong card detail: the payment arguments must change (often by the user).
    [
      validation(),
      [
        'card_error',
        'card_declined',
        'expired_card',
        'incorrect_cvc',
        'incorrect_number',
        'invalid_cvc',
        'invalid_expiry_month',
        'invalid_expiry_year',
        'invalid_number',
        'insufficient_funds',
        'authentication_required',
        'parameter_missing',
        'parameter_invalid_empty',
        'parameter_invalid_integer',
        'parameter_invalid_string_empty',
        'parameter_unknown',
        'parameters_exclusive',
        'amount_too_small',
        'amount_too_large',
        'url_invalid',
        'email_invalid',
      ],
    ],
    // The same idempotency key with different parameters: the "retry" is another request.
    [invariant(), ['idempotency_error']],
    [invariant('rejected', dup), ['resource_already_exists', 'charge_already_captured', 'charge_already_refunded']],
    [missingResource(), ['resource_missing']],
    // lock_timeout and idempotency_key_in_use: another request holds the object; this one did nothing.
    [transient('rejected'), ['rate_limit', 'lock_timeout', 'idempotency_key_in_use']],
    // "An error occurred while processing the card. Try again later."
    [transient('indeterminate'), ['processing_error', 'api_connection_error']],
    [
      permission(),
      [
        'api_key_expired',
        'secret_key_required',
        'testmode_charges_only',
        'platform_api_key_expired',
        'account_invalid',
      ],
    ],
  ],
};

/** Slack Web API "error" values ({"ok": false, "error": "…"}). */
export const SLACK: ProviderGroup = {
  provider: 'slack',
  source:
    'https://api.slack.com/web#errors, https://api.slack.com/methods/chat.postMessage#errors, https://api.slack.com/apis/rate-limits',
  entries: [
    // "ratelimited" (Slack, also GitHub GraphQL's RATE_LIMITED after normalisation).
    [transient('rejected'), ['ratelimited', 'rate_limited', 'team_added_to_org', 'request_timeout']],
    [
      permission(),
      [
        'not_authed',
        'invalid_auth',
        'account_inactive',
        'token_revoked',
        'token_expired',
        'no_permission',
        'missing_scope',
        'not_allowed_token_type',
        'org_login_required',
        'ekm_access_denied',
        'access_denied',
        'not_in_channel',
        'restricted_action',
      ],
    ],
    [
      missingResource(),
      [
        'channel_not_found',
        'user_not_found',
        'message_not_found',
        'file_not_found',
        'thread_not_found',
        'team_not_found',
      ],
    ],
    [
      validation(),
      [
        'invalid_arguments',
        'invalid_arg_name',
        'invalid_array_arg',
        'invalid_charset',
        'invalid_form_data',
        'invalid_post_type',
        'missing_post_type',
        'msg_too_long',
        'no_text',
        'too_many_attachments',
        'invalid_blocks',
        'invalid_json',
        'json_not_object',
      ],
    ],
    [invariant('rejected', dup), ['name_taken', 'already_reacted', 'already_in_channel']],
    // "It's possible some aspect of the operation succeeded before the error was raised."
    [transient('indeterminate'), ['fatal_error', 'service_unavailable']],
    [transient('indeterminate', { generic: true }), ['internal_error']],
  ],
};

/** OAuth 2.0 token and bearer errors (the "error" member of the JSON reply). */
export const OAUTH: ProviderGroup = {
  provider: 'oauth',
  source: 'https://www.rfc-editor.org/rfc/rfc6749#section-5.2, https://www.rfc-editor.org/rfc/rfc6750#section-3.1',
  entries: [
    // An expired or revoked grant, a bad client, a missing scope: a person or a re-consent must act.
    [
      permission(),
      [
        'invalid_client',
        'invalid_grant',
        'unauthorized_client',
        'invalid_token',
        'insufficient_scope',
        'invalid_scope',
        'access_denied',
      ],
    ],
    [
      validation(),
      ['invalid_request', 'unsupported_grant_type', 'unsupported_response_type', 'unsupported_token_type'],
    ],
    [transient('rejected'), ['temporarily_unavailable']],
  ],
};

/** GitHub REST validation error codes (errors[].code in a 422 body). */
export const GITHUB: ProviderGroup = {
  provider: 'github',
  source: 'https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api',
  entries: [
    [invariant('rejected', { duplicateOnRetry: true }), ['already_exists']],
    [missingResource(), ['missing']],
    [validation(), ['missing_field', 'invalid', 'unprocessable']],
  ],
};

/** Redis error prefixes (the first word of the reply). */
export const REDIS: ProviderGroup = {
  provider: 'redis',
  source: 'https://redis.io/docs/latest/develop/reference/protocol-spec/#simple-errors',
  entries: [
    [permission(), ['NOAUTH', 'WRONGPASS', 'NOPERM']],
    // Refused before execution: still loading, busy script, failover or cluster redirect, maxmemory,
    // a write sent to a replica (READONLY: after a failover the client still holds the old primary),
    // too few replicas, failing snapshots (MISCONF stops writes until a save succeeds).
    [
      transient('rejected'),
      [
        'LOADING',
        'BUSY',
        'TRYAGAIN',
        'MASTERDOWN',
        'CLUSTERDOWN',
        'MOVED',
        'ASK',
        'OOM',
        'READONLY',
        'NOREPLICAS',
        'MISCONF',
        'UNBLOCKED',
      ],
    ],
    [validation(), ['WRONGTYPE', 'EXECABORT', 'CROSSSLOT', 'NOPROTO']],
    // The script or group named is not there: load it (SCRIPT LOAD / EVAL) or create it first.
    [missingResource(), ['NOSCRIPT', 'NOGROUP']],
    // redis-py raises these prefixes as its own classes and drops the prefix from the text
    // (https://redis.readthedocs.io/en/stable/exceptions.html): READONLY is ReadOnlyError, LOADING BusyLoadingError,
    // NOSCRIPT NoScriptError, NOPERM NoPermissionError, EXECABORT ExecAbortError.
    [transient('rejected'), ['ReadOnlyError', 'BusyLoadingError']],
    [missingResource(), ['NoScriptError']],
    [permission(), ['NoPermissionError']],
    [validation(), ['ExecAbortError']],
    [invariant('rejected', { duplicateOnRetry: true }), ['BUSYKEY', 'BUSYGROUP']],
  ],
};
