/** DI token: the byte cap of an OTLP body, before and after gzip (API_MAX_BODY_BYTES). */
export const OTLP_MAX_BODY_BYTES = Symbol('OTLP_MAX_BODY_BYTES');
