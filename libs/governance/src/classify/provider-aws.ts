import { concurrencyConflict, invariant, missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;

/** AWS error codes: the Code element / __type / SDK v3 error.name. */
export const AWS: ProviderGroup = {
  provider: 'aws',
  source:
    'https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html, https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html, https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html',
  entries: [
    [
      permission(),
      [
        'AccessDenied',
        'AccessDeniedException',
        'UnauthorizedOperation',
        'UnauthorizedException',
        'UnrecognizedClientException',
        'InvalidClientTokenId',
        'SignatureDoesNotMatch',
        'ExpiredToken',
        'ExpiredTokenException',
        'MissingAuthenticationToken',
        'MissingAuthenticationTokenException',
        'AuthFailure',
        'InvalidAccessKeyId',
        'NotAuthorized',
        'NotAuthorizedException',
        'IncompleteSignature',
        'InvalidSignatureException',
        'OptInRequired',
        'AccountProblem',
        'AllAccessDisabled',
        'InvalidToken',
        'TokenRefreshRequired',
        // An allocation quota (number of resources) does not refill by waiting: someone must raise it.
        'ServiceQuotaExceededException',
        // EC2's per-account allocation limits (errors-overview: "You've reached the limit on the number of …"), the
        // same kind of quota, raised through Service Quotas; RequestLimitExceeded is EC2's request-rate throttle.
        'AddressLimitExceeded',
        'CustomerGatewayLimitExceeded',
        'InstanceLimitExceeded',
        'InternetGatewayLimitExceeded',
        'NatGatewayLimitExceeded',
        'NetworkInterfaceLimitExceeded',
        'RouteTableLimitExceeded',
        'SecurityGroupLimitExceeded',
        'VcpuLimitExceeded',
        'VolumeLimitExceeded',
        'VpcLimitExceeded',
      ],
    ],
    // EC2 DependencyViolation: "The specified object has dependent resources" (a security group still attached, a VPC
    // with subnets); the dependents must go first.
    [invariant(), ['DependencyViolation']],
    [
      transient('rejected'),
      [
        'Throttling',
        'ThrottlingException',
        'ThrottledException',
        'TooManyRequestsException',
        'ProvisionedThroughputExceededException',
        'RequestLimitExceeded',
        'RequestThrottled',
        'RequestThrottledException',
        'SlowDown',
        'BandwidthLimitExceeded',
        'LimitExceededException',
        'PriorRequestNotComplete',
        'TransactionInProgressException',
        'EC2ThrottledException',
        'InsufficientInstanceCapacity',
        'RequestExpired',
        'RequestTimeTooSkewed',
        'IDPCommunicationError',
        'ResourceInUseException',
        // S3 RequestTimeout: the request body was not received in time, so it was never processed.
        'RequestTimeout',
      ],
    ],
    // DynamoDB's cancellation reason codes (TransactWriteItems: CancellationReasons[].Code) name the same failures
    // without the "Exception" suffix: TransactionConflict, ThrottlingError, ProvisionedThroughputExceeded.
    [transient('rolled_back', { concurrency: true }), ['TransactionConflictException', 'TransactionConflict']],
    [transient('rejected'), ['ThrottlingError', 'ProvisionedThroughputExceeded']],
    // A conditional write refused (DynamoDB ConditionExpression, S3 If-Match → 412 PreconditionFailed):
    // nothing was written; the documented remedy is to read the current item and retry. After an
    // attempt whose outcome was unknown it may be our own first write (classify() reads the context).
    [concurrencyConflict(), ['ConditionalCheckFailedException', 'ConditionalCheckFailed', 'PreconditionFailed']],
    [
      transient('indeterminate'),
      ['ServiceUnavailable', 'ServiceUnavailableException', 'Unavailable', 'RequestTimeoutException'],
    ],
    [
      transient('indeterminate', { generic: true }),
      ['InternalError', 'InternalFailure', 'InternalServerError', 'InternalServerException'],
    ],
    [
      validation(),
      [
        'ValidationException',
        'ValidationError',
        'InvalidParameterValue',
        'InvalidParameterValueException',
        'InvalidParameterCombination',
        'InvalidParameterException',
        'MissingParameter',
        'InvalidInput',
        'InvalidInputException',
        'MalformedQueryString',
        'InvalidQueryParameter',
        'SerializationException',
        'InvalidArgument',
        'InvalidRequest',
        'InvalidRequestException',
        'MalformedPolicyDocument',
        'MalformedPolicyDocumentException',
        'EntityTooLarge',
        'EntityTooSmall',
        'KeyTooLongError',
        'InvalidBucketName',
        'InvalidAction',
        'UnsupportedOperation',
        'InvalidRange',
        'MalformedXML',
        'InvalidDigest',
        'BadDigest',
        'MethodNotAllowed',
        'UnknownOperationException',
      ],
    ],
    [
      missingResource(),
      [
        'ResourceNotFoundException',
        'NoSuchKey',
        'NoSuchBucket',
        'NoSuchEntity',
        'NoSuchUpload',
        'NoSuchVersion',
        'NotFoundException',
        'NotFound',
        'QueueDoesNotExist',
        'AWS.SimpleQueueService.NonExistentQueue',
        'NoSuchHostedZone',
      ],
    ],
    [
      invariant('rejected', dup),
      [
        'BucketAlreadyExists',
        'BucketAlreadyOwnedByYou',
        'EntityAlreadyExists',
        'AlreadyExistsException',
        'ResourceAlreadyExistsException',
        'ResourceExistsException',
        'ConflictException',
        'ResourceConflictException',
        'DeleteConflict',
      ],
    ],
    // Same client token, different parameters: the "retry" is a different request (Stripe's idempotency_error).
    [
      invariant(),
      [
        'IdempotentParameterMismatch',
        'IdempotentParameterMismatchException',
        'IncorrectState',
        'KMSInvalidStateException',
      ],
    ],
    [invariant('rejected', { generic: true }), ['TransactionCanceledException']],
  ],
};
