/**
 * The API's domain errors: a small set with stable codes, turned into HTTP responses in one place
 * (ApiExceptionFilter). Controllers and adapters throw these; nothing else knows status codes.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;

  /** Extra JSON members of the error body (field, index, …). */
  details(): Record<string, unknown> {
    return {};
  }
}

/** No key, or a key that belongs to no tenant. */
export class UnauthenticatedError extends ApiError {
  override readonly name = 'UnauthenticatedError';
  readonly status = 401;
  readonly code = 'unauthenticated';
}

/** The body speaks for another tenant than the key's. */
export class TenantMismatchError extends ApiError {
  override readonly name = 'TenantMismatchError';
  readonly status = 403;
  readonly code = 'tenant_mismatch';
  constructor(
    readonly index: number | null,
    message: string,
  ) {
    super(message);
  }
  override details() {
    return { field: 'tenant', index: this.index };
  }
}

/** Authenticated, but the request may not proceed (e.g. a dashboard request without its CSRF proof). */
export class ForbiddenError extends ApiError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Bad input: names the offending field, and the event's position for batches. */
export class InvalidRequestError extends ApiError {
  override readonly name = 'InvalidRequestError';
  readonly status = 400;
  constructor(
    readonly code: string,
    readonly field: string,
    message: string,
    readonly index: number | null = null,
  ) {
    super(message);
  }
  override details() {
    return { field: this.field, index: this.index };
  }
}

/**
 * An event id its source already used for another body (CloudEvents: id is unique within source): the
 * stored event stands; `storedDigest` names it (tokencircuit_event_digest), `index` the event in a batch.
 */
export class ConflictError extends ApiError {
  override readonly name = 'ConflictError';
  readonly status = 409;
  readonly code = 'conflict';
  constructor(
    message: string,
    readonly index: number | null,
    readonly storedDigest: string,
  ) {
    super(message);
  }
  override details() {
    return { field: 'id', index: this.index, storedDigest: this.storedDigest };
  }
}

/** Above the body size cap or an event above LIMITS.eventBytes. */
export class PayloadTooLargeError extends ApiError {
  override readonly name = 'PayloadTooLargeError';
  readonly status = 413;
  readonly code = 'payload_too_large';
  constructor(
    message: string,
    readonly index: number | null = null,
  ) {
    super(message);
  }
  override details() {
    return this.index === null ? {} : { index: this.index };
  }
}

/** Absent, or another tenant's: the two are indistinguishable on purpose. */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
  readonly code = 'not_found';
}

/** A body that is not JSON, or not sent as JSON. */
export class UnsupportedMediaTypeError extends ApiError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly status = 415;
  readonly code = 'unsupported_media_type';
}

/** The tenant spent its quota (a token bucket per tenant): retry after `retryAfterSeconds`, nothing was accepted. */
export class TooManyRequestsError extends ApiError {
  override readonly name = 'TooManyRequestsError';
  readonly status = 429;
  readonly code = 'rate_limited';
  constructor(
    readonly quota: string,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
  override details() {
    return { quota: this.quota, retryAfterSeconds: this.retryAfterSeconds };
  }
}

/** A dependency (broker, database) failed: nothing was accepted, the client may retry the same request. */
export class UnavailableError extends ApiError {
  override readonly name = 'UnavailableError';
  readonly status = 503;
  readonly retriable = true;
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
