import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { ApiConfig } from '../api-config.js';
import { API_CONFIG } from '../tokens.js';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './api-errors.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Our own JSON body parser (Nest's is switched off in createApiApp): the limit is ours, and its
 * failures become domain errors, so an oversized body gets the same clean JSON 413 as every other
 * error instead of express' HTML page.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: RequestHandler;

  constructor(@Inject(API_CONFIG) private readonly config: Pick<ApiConfig, 'API_MAX_BODY_BYTES'>) {
    this.parse = express.json({ limit: config.API_MAX_BODY_BYTES, strict: true, type: JSON_TYPES });
  }

  use(request: Request, response: Response, next: NextFunction): Promise<void> {
    if (request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'PATCH') {
      next();
      return Promise.resolve();
    }
    if (!request.is(JSON_TYPES)) {
      return Promise.reject(new UnsupportedMediaTypeError('the body must be JSON (content-type: application/json)'));
    }
    // Rejecting (rather than calling next(error)) hands the error to Nest's exception filter.
    return new Promise((resolve, reject) => {
      this.parse(request, response, (error?: unknown) => {
        if (error) reject(this.toDomainError(error));
        else resolve(next());
      });
    });
  }

  private toDomainError(error: unknown): Error {
    const type = (error as { type?: string }).type;
    switch (type) {
      case 'entity.too.large':
        return new PayloadTooLargeError(`the body exceeds ${this.config.API_MAX_BODY_BYTES} bytes`);
      case 'entity.parse.failed':
        return new InvalidRequestError(
          'invalid_json',
          '(body)',
          `the body is not valid JSON: ${(error as Error).message}`,
        );
      case 'charset.unsupported':
      case 'encoding.unsupported':
        return new UnsupportedMediaTypeError((error as Error).message);
      default:
        return new InvalidRequestError(
          'unreadable_body',
          '(body)',
          `the body could not be read: ${(error as Error).message}`,
        );
    }
  }
}
