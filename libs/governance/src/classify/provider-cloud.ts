import { concurrencyConflict, invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;

/** Google APIs: errors[].reason (v1 style), ErrorInfo.reason (google.rpc), status names go to gRPC. */
export const GCP: ProviderGroup = {
  provider: 'gcp',
  source:
    'https://cloud.google.com/apis/design/errors, https://developers.google.com/drive/api/guides/handle-errors, https://cloud.google.com/storage/docs/json_api/v1/status-codes',
  entries: [
    [
      transient('rejected'),
      ['rateLimitExceeded', 'userRateLimitExceeded', 'sharingRateLimitExceeded', 'RATE_LIMIT_EXCEEDED'],
    ],
    // Compute Engine's stockout: the zone has no capacity for the resource now; another zone, or a later try, can
    // succeed (troubleshooting-resource-availability). Nothing was created.
    [transient('rejected'), ['ZONE_RESOURCE_POOL_EXHAUSTED', 'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS']],
    // Calendar's 410 for an incremental sync whose token or updatedMin the server no longer honours: the documented
    // remedy is a full sync (wipe the store, list again), then incremental sync from its token, like Kubernetes' Expired.
    [transient('rejected'), ['fullSyncRequired', 'updatedMinTooLongAgo']],
    [
      permission(),
      [
        // Daily and allocation quotas refill beyond any retry budget: a person must act.
        'dailyLimitExceeded',
        'quotaExceeded',
        'storageQuotaExceeded',
        'insufficientPermissions',
        'forbidden',
        'accessNotConfigured',
        'SERVICE_DISABLED',
        'API_KEY_INVALID',
        'API_KEY_SERVICE_BLOCKED',
        'ACCESS_TOKEN_EXPIRED',
        'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        'authError',
        'keyInvalid',
        'unauthorized',
        'accountDisabled',
        'domainPolicy',
        'billingNotEnabled',
        'BILLING_DISABLED',
        'CONSUMER_INVALID',
        'IAM_PERMISSION_DENIED',
      ],
    ],
    [missingResource(), ['notFound']],
    [
      validation(),
      [
        'invalid',
        'invalidParameter',
        'required',
        'parseError',
        'invalidQuery',
        'responseTooLarge',
        'invalidValue',
        'badContent',
      ],
    ],
    [validation({ generic: true }), ['badRequest']],
    [invariant('rejected', dup), ['duplicate', 'alreadyExists', 'conflict']],
    // Cloud Storage 412 conditionNotMet: an ifGenerationMatch/ifMetagenerationMatch precondition failed.
    [concurrencyConflict(), ['conditionNotMet']],
    [transient('indeterminate'), ['backendError']],
    [transient('indeterminate', { generic: true }), ['internalError']],
  ],
};

/** Azure Resource Manager and Storage error codes (error.code, and error.details[].code). */
export const AZURE: ProviderGroup = {
  provider: 'azure',
  source:
    'https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/common-deployment-errors, https://learn.microsoft.com/en-us/rest/api/storageservices/common-rest-api-error-codes',
  entries: [
    [
      permission(),
      [
        'AuthorizationFailed',
        'AuthenticationFailed',
        'InvalidAuthenticationToken',
        'InvalidAuthenticationTokenTenant',
        'ExpiredAuthenticationToken',
        'LinkedAuthorizationFailed',
        'AuthorizationPermissionMismatch',
        'AuthorizationFailure',
        'InsufficientAccountPermissions',
        'AccountIsDisabled',
        'QuotaExceeded',
        'OperationNotAllowed',
        'MissingSubscriptionRegistration',
        'RequestDisallowedByPolicy',
        'Forbidden',
        // A management lock (CanNotDelete / ReadOnly) on the resource or a parent scope: someone with the right to
        // remove the lock must do so (lock-resources).
        'ScopeLocked',
      ],
    ],
    [
      missingResource(),
      [
        'ResourceNotFound',
        'ResourceGroupNotFound',
        'SubscriptionNotFound',
        'ParentResourceNotFound',
        'BlobNotFound',
        'ContainerNotFound',
        'QueueNotFound',
        'ShareNotFound',
        'TableNotFound',
        'DeploymentNotFound',
      ],
    ],
    [
      transient('rejected'),
      [
        'TooManyRequests',
        'ServerBusy',
        'SubscriptionRequestsThrottled',
        'AnotherOperationInProgress',
        'ResourceGroupBeingDeleted',
      ],
    ],
    [transient('indeterminate'), ['OperationTimedOut', 'GatewayTimeout']],
    [
      validation(),
      [
        'InvalidParameter',
        'InvalidRequestContent',
        'InvalidRequestFormat',
        'InvalidTemplate',
        'InvalidResourceName',
        'MissingRequiredParameter',
        'InvalidApiVersionParameter',
        'NoRegisteredProviderFound',
        'InvalidResourceType',
        'LocationNotAvailableForResourceType',
        'SkuNotAvailable',
        'InvalidHeaderValue',
        'InvalidQueryParameterValue',
        'OutOfRangeInput',
        'MissingRequiredHeader',
        'Md5Mismatch',
        'RequestBodyTooLarge',
        'InvalidUri',
      ],
    ],
    [validation({ generic: true }), ['BadRequest', 'InvalidTemplateDeployment']],
    // Storage 412 ConditionNotMet (If-Match/If-Unmodified-Since), lease and ETag mismatches: re-read and retry.
    [
      concurrencyConflict(),
      ['ConditionNotMet', 'TargetConditionNotMet', 'SourceConditionNotMet', 'PreconditionFailed'],
    ],
    [
      invariant('rejected', dup),
      [
        'Conflict',
        'ContainerAlreadyExists',
        'BlobAlreadyExists',
        'QueueAlreadyExists',
        'StorageAccountAlreadyTaken',
        'StorageAccountAlreadyExists',
      ],
    ],
  ],
};
