import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { ContractError } from '@tokencircuit/contracts';
import { ApiError, TooManyRequestsError, UnauthenticatedError } from './api-errors.js';

export interface ErrorBody {
  readonly error: string;
  readonly message: string;
  readonly [detail: string]: unknown;
}

/** The one place where errors become HTTP: domain errors by their code, the rest as 500 (logged). */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body } = this.toHttp(exception);
    if (reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    if (reply.sent) return;
    if (exception instanceof UnauthenticatedError) reply.header('www-authenticate', 'Bearer');
    if (exception instanceof TooManyRequestsError) reply.header('retry-after', String(exception.retryAfterSeconds));
    void reply.status(status).send(body);
  }

  private toHttp(exception: unknown): { status: number; body: ErrorBody } {
    if (exception instanceof ApiError) {
      if (exception.status >= 500) this.log.error({ err: exception }, exception.message);
      return {
        status: exception.status,
        body: { error: exception.code, message: exception.message, ...exception.details() },
      };
    }
    if (exception instanceof ContractError) {
      const status = exception.code === 'too_large' ? 413 : 400;
      return { status, body: { error: exception.code, message: exception.message, field: exception.field } };
    }
    if (exception instanceof HttpException) {
      // Nest's own (unmatched routes: 404) and Fastify's, which Nest wraps in a plain HttpException with
      // Fastify's status (a chunked body above the cap: 413; a body shorter than its length: 400).
      const status = exception.getStatus();
      const error =
        exception.constructor === HttpException
          ? ((HttpStatus[status] as string | undefined)?.toLowerCase() ?? 'error')
          : snakeCase(exception.name.replace(/Exception$/, ''));
      return { status, body: { error, message: exception.message } };
    }
    const clientStatus = fastifyClientStatus(exception);
    if (clientStatus !== null) {
      // Fastify and its plugins (@fastify/static refusing a path outside its root: 403) mark what the
      // request did wrong with a 4xx statusCode; it is the client's error, not an unhandled one.
      const error = (HttpStatus[clientStatus] as string | undefined)?.toLowerCase() ?? 'bad_request';
      return { status: clientStatus, body: { error, message: (exception as Error).message } };
    }
    this.log.error({ err: exception }, 'unhandled error in request');
    return { status: 500, body: { error: 'internal_error', message: 'internal error' } };
  }
}

const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase() || 'error';

/** The 4xx status a Fastify error carries (statusCode, as Fastify and its plugins set it), or null. */
function fastifyClientStatus(exception: unknown): number | null {
  if (!(exception instanceof Error)) return null;
  const status = (exception as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : null;
}
