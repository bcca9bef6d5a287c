import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { onRequestHookHandler } from 'fastify';
import { decodeProtobufTraceRequest, OtlpInputError, readTraceRequest, type OtlpSpan } from '@tokencircuit/otlp';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../http/api-errors.js';
import { jsonBodyOf } from '../http/json-body.js';

/** The two encodings of OTLP/HTTP. */
export type OtlpEncoding = 'protobuf' | 'json';

export const PROTOBUF_MEDIA_TYPE = 'application/x-protobuf';

const gunzipAsync = promisify(gunzip);

export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding | null {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return essence === PROTOBUF_MEDIA_TYPE ? 'protobuf' : essence === 'application/json' ? 'json' : null;
}

/**
 * Refuses, before the body is read, what the receiver would never decode: a media type other than OTLP's
 * two (415), a content coding other than gzip or identity (415), a declared length above the cap (413).
 */
export function otlpBodyRulesHook(maxBodyBytes: number): onRequestHookHandler {
  return function checkOtlpBody(request, _reply, done) {
    if (otlpEncodingOf(request.headers['content-type']) === null) {
      done(new UnsupportedMediaTypeError(`an OTLP body is ${PROTOBUF_MEDIA_TYPE} or application/json`));
      return;
    }
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding !== undefined && coding !== 'identity' && coding !== 'gzip') {
      done(new UnsupportedMediaTypeError(`unsupported content encoding "${coding}" (gzip or identity)`));
      return;
    }
    if (Number(request.headers['content-length']) > maxBodyBytes) {
      done(new PayloadTooLargeError(`the body exceeds ${maxBodyBytes} bytes`));
      return;
    }
    done();
  };
}

/**
 * The raw body → spans. A gzip body is inflated up to the same cap as a plain one (a decompression bomb
 * stops there: 413); a body that is not OTLP is a 400 naming where; the receiver's limits are 413s.
 */
export async function otlpSpansOf(
  raw: Buffer,
  encoding: OtlpEncoding,
  contentEncoding: string | undefined,
  maxBodyBytes: number,
): Promise<OtlpSpan[]> {
  const bytes = contentEncoding?.trim().toLowerCase() === 'gzip' ? await inflate(raw, maxBodyBytes) : raw;
  try {
    return readTraceRequest(
      encoding === 'protobuf' ? decodeProtobufTraceRequest(bytes) : jsonBodyOf(bytes.toString('utf8')),
    );
  } catch (error) {
    if (!(error instanceof OtlpInputError)) throw error;
    if (error.code === 'too_large') throw new PayloadTooLargeError(error.message);
    throw new InvalidRequestError('invalid_otlp', error.field, error.message);
  }
}

async function inflate(raw: Buffer, maxBodyBytes: number): Promise<Buffer> {
  try {
    return await gunzipAsync(raw, { maxOutputLength: maxBodyBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new PayloadTooLargeError(`the body inflates past ${maxBodyBytes} bytes`);
    }
    throw new InvalidRequestError('invalid_gzip', '(body)', `the body is not valid gzip: ${(error as Error).message}`);
  }
}
