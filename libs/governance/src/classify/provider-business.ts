import { concurrencyConflict, invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;

/**
 * Salesforce REST API errorCode values (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm
 * and the StatusCode enum of the SOAP API reference). Salesforce answers most of them with a bare 400,
 * so the code is what says what to do.
 */
export const SALESFORCE: ProviderGroup = {
  provider: 'salesforce',
  source: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm',
  entries: [
    // Another transaction holds the record's lock: the documented remedy is to retry.
    [transient('rejected'), ['UNABLE_TO_LOCK_ROW', 'SERVER_UNAVAILABLE']],
    [concurrencyConflict(), ['CONCURRENT_MODIFICATION']],
    [
      permission(),
      [
        'INSUFFICIENT_ACCESS_OR_READONLY',
        'INSUFFICIENT_ACCESS_ON_CROSS_REFERENCE_ENTITY',
        'INSUFFICIENT_ACCESS',
        'INVALID_SESSION_ID',
        'INVALID_AUTH_HEADER',
        'API_DISABLED_FOR_ORG',
        'API_CURRENTLY_DISABLED',
      ],
    ],
    [missingResource(), ['ENTITY_IS_DELETED', 'INVALID_ID_FIELD', 'NOT_FOUND']],
    [
      invariant('rejected', { duplicateOnRetry: true }),
      ['DUPLICATE_VALUE', 'DUPLICATES_DETECTED', 'DUPLICATE_EXTERNAL_ID'],
    ],
    [invariant(), ['ENTITY_IS_LOCKED', 'CANNOT_INSERT_UPDATE_ACTIVATE_ENTITY', 'DELETE_FAILED']],
    [
      validation(),
      [
        'MALFORMED_QUERY',
        'INVALID_FIELD',
        'INVALID_TYPE',
        'INVALID_FIELD_FOR_INSERT_UPDATE',
        'REQUIRED_FIELD_MISSING',
        'FIELD_CUSTOM_VALIDATION_EXCEPTION',
        'FIELD_INTEGRITY_EXCEPTION',
        'STRING_TOO_LONG',
        'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
        'INVALID_CROSS_REFERENCE_KEY',
        'JSON_PARSER_ERROR',
        'MALFORMED_ID',
        'INVALID_QUERY_FILTER_OPERATOR',
      ],
    ],
  ],
};

/**
 * Salesforce codes whose normalised name another vendor's table holds with another meaning, read only when the
 * outcome names Salesforce. REQUEST_LIMIT_EXCEEDED: "you've exceeded API request limits in your org" (403), the
 * rolling 24-hour allocation ("TotalRequests Limit exceeded."), which no backoff outlasts (AWS's RequestLimitExceeded
 * is a per-second throttle).
 */
export const SALESFORCE_SCOPED: ProviderGroup = {
  provider: 'salesforce',
  source:
    'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm, https://developer.salesforce.com/docs/atlas.en-us.salesforce_app_limits_cheatsheet.meta/salesforce_app_limits_cheatsheet/salesforce_app_limits_platform_api.htm',
  entries: [[permission(), ['REQUEST_LIMIT_EXCEEDED']]],
};

/**
 * Dropbox API v2 error tags (https://www.dropbox.com/developers/documentation/http/documentation#error-handling):
 * every endpoint error is a 409 whose error_summary lists the union tags, outermost first
 * ("path/not_found/..", "path/conflict/file/.."); the tags say what happened.
 */
export const DROPBOX: ProviderGroup = {
  provider: 'dropbox',
  source: 'https://www.dropbox.com/developers/documentation/http/documentation#error-handling',
  entries: [
    [permission(), ['expired_access_token', 'invalid_access_token', 'no_write_permission', 'restricted_content']],
    [transient('rejected'), ['too_many_write_operations', 'too_many_requests']],
    [validation(), ['malformed_path', 'disallowed_name']],
    [missingResource(), ['not_found', 'not_file', 'not_folder']],
  ],
};

/**
 * PayPal REST API issue names (https://developer.paypal.com/api/rest/reference/orders/v2/errors/,
 * https://developer.paypal.com/api/rest/responses/): the SDKs and the CLI put "name" or "details[].issue" at the
 * head of the message ("INSTRUMENT_DECLINED", "UNPROCESSABLE_ENTITY: The requested action could not be performed,
 * semantically incorrect, or failed business validation.").
 */
export const PAYPAL: ProviderGroup = {
  provider: 'paypal',
  source: 'https://developer.paypal.com/api/rest/reference/orders/v2/errors/',
  entries: [
    // The funding source was declined, or the request breaks a business rule: the arguments must change.
    [
      validation(),
      [
        'INSTRUMENT_DECLINED',
        'CARD_EXPIRED',
        'TRANSACTION_REFUSED',
        'UNPROCESSABLE_ENTITY',
        'INVALID_REQUEST',
        'INVALID_PARAMETER_VALUE',
        'INVALID_PARAMETER_SYNTAX',
        'MISSING_REQUIRED_PARAMETER',
        'MALFORMED_REQUEST_JSON',
      ],
    ],
    // "Duplicate Invoice ID detected. To avoid a potential duplicate transaction…"; one capture per order.
    [invariant('rejected', dup), ['DUPLICATE_INVOICE_ID', 'ORDER_ALREADY_CAPTURED', 'DUPLICATE_REQUEST_ID']],
    [missingResource(), ['RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID']],
    [permission(), ['PERMISSION_DENIED', 'NOT_AUTHORIZED', 'AUTHENTICATION_FAILURE', 'PAYEE_ACCOUNT_RESTRICTED']],
    [transient('rejected'), ['RATE_LIMIT_REACHED']],
  ],
};

/**
 * Square API error codes (https://developer.squareup.com/reference/square/enums/ErrorCode): the SDKs' message lists
 * each error's code ("CARD_DECLINED", "INSUFFICIENT_FUNDS", both of category PAYMENT_METHOD_ERROR: the card was
 * declined, the buyer must use another).
 */
export const SQUARE: ProviderGroup = {
  provider: 'square',
  source: 'https://developer.squareup.com/reference/square/enums/ErrorCode',
  entries: [
    [
      validation(),
      [
        'CARD_DECLINED',
        'INSUFFICIENT_FUNDS',
        'GENERIC_DECLINE',
        'CVV_FAILURE',
        'ADDRESS_VERIFICATION_FAILURE',
        'INVALID_EXPIRATION',
        'CARD_EXPIRED',
        'INVALID_CARD',
        'INVALID_VALUE',
        'MISSING_REQUIRED_PARAMETER',
      ],
    ],
    // The same idempotency key with different parameters: the "retry" is another request.
    [invariant(), ['IDEMPOTENCY_KEY_REUSED']],
    [permission(), ['ACCESS_TOKEN_EXPIRED', 'ACCESS_TOKEN_REVOKED', 'INSUFFICIENT_SCOPES']],
    [transient('rejected'), ['RATE_LIMITED']],
  ],
};

/**
 * Box API client error codes (https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors/):
 * the SDKs and CLI print the "code" of the error body ("item_name_in_use", Box's 409 when a file or folder of that
 * name already exists in the parent folder).
 */
export const BOX: ProviderGroup = {
  provider: 'box',
  source: 'https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors/',
  entries: [
    // The name is taken in that folder: a create repeated after an attempt that may have applied finds its own item.
    [invariant('rejected', dup), ['item_name_in_use']],
    [validation(), ['item_name_invalid', 'item_name_too_long']],
    [permission(), ['access_denied_insufficient_permissions', 'insufficient_scope']],
    // Box documents both as momentary: another operation holds the name or the item; retry later.
    [transient('rejected'), ['name_temporarily_reserved', 'operation_blocked_temporary', 'rate_limit_exceeded']],
    [missingResource(), ['not_found']],
  ],
};
