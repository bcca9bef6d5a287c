import { invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

/**
 * OpenAI error.code / error.type values and its SDK exception classes. Quota and spend limits share
 * 429 with rate limits, but retrying cannot restore access until someone pays or raises a limit
 * (OpenAI says so), so they are permission (budget 0, ask a person), not transient.
 */
export const OPENAI: ProviderGroup = {
  provider: 'openai',
  source: 'https://platform.openai.com/docs/guides/error-codes',
  entries: [
    [
      permission(),
      [
        'insufficient_quota',
        'credit_balance_exhausted',
        'organization_spend_limit_exceeded',
        'project_spend_limit_exceeded',
        'organization_usage_limit_exceeded',
        'billing_hard_limit_reached',
        'billing_not_active',
        'access_terminated',
        'account_deactivated',
        'invalid_api_key',
        'invalid_organization',
        'unsupported_country_region_territory',
      ],
    ],
    [transient('rejected'), ['rate_limit_exceeded', 'slow_down']],
    [missingResource(), ['model_not_found']],
    [
      validation(),
      [
        'context_length_exceeded',
        'string_above_max_length',
        'invalid_value',
        'invalid_type',
        'missing_required_parameter',
        'unknown_parameter',
        'unsupported_parameter',
        'unsupported_value',
        'invalid_prompt',
        'content_policy_violation',
      ],
    ],
    // The SDKs' exception classes restate the HTTP status (every 429 is a RateLimitError, quota
    // included), so they are catch-alls that the body's code refines.
    [transient('rejected', { generic: true }), ['RateLimitError']],
    [permission({ generic: true }), ['AuthenticationError', 'PermissionDeniedError']],
    [missingResource({ generic: true }), ['NotFoundError']],
    [validation({ generic: true }), ['BadRequestError', 'UnprocessableEntityError']],
    [invariant('rejected', { duplicateOnRetry: true, generic: true }), ['ConflictError']],
    // openai-node's APIConnectionTimeoutError is its whole-request timer, not the connect phase.
    [transient('indeterminate'), ['APIConnectionError', 'APITimeoutError', 'APIConnectionTimeoutError']],
    [transient('indeterminate', { generic: true }), ['server_error']],
  ],
};

/** Anthropic error.type values (and error.details.error_code for spend limits). */
export const ANTHROPIC: ProviderGroup = {
  provider: 'anthropic',
  source: 'https://docs.anthropic.com/en/api/errors',
  entries: [
    // Each error.type restates its HTTP status (429 rate_limit_error covers spend limits too, told
    // apart by details.error_code), so they are catch-alls like the status itself.
    [transient('rejected', { generic: true }), ['rate_limit_error']],
    [permission({ generic: true }), ['authentication_error', 'permission_error']],
    [missingResource({ generic: true }), ['not_found_error']],
    // 529 overloaded_error is refused at admission, like a 429.
    [transient('rejected'), ['overloaded_error', 'OverloadedError']],
    [transient('indeterminate'), ['timeout_error']],
    [permission(), ['billing_error', 'enforced_spend_limit_reached']],
    // "We may also use this error type for other 4XX status codes": generic, the message may refine it
    // (a spend limit is reported as invalid_request_error).
    [validation({ generic: true }), ['invalid_request_error']],
    [validation(), ['request_too_large']],
  ],
};
