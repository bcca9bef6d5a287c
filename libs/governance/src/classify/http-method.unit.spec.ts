import { describe, expect, it } from 'vitest';
import { httpMethodSemantics } from './http-method.js';

describe('httpMethodSemantics (RFC 9110 §9.2, IANA method registry)', () => {
  it.each(['GET', 'HEAD', 'OPTIONS', 'TRACE'])('%s is safe and idempotent', (m) => {
    expect(httpMethodSemantics(m)).toEqual({ method: m, safe: true, idempotent: true, registered: true });
  });

  it.each(['PUT', 'DELETE'])('%s is idempotent but not safe', (m) => {
    expect(httpMethodSemantics(m)).toMatchObject({ safe: false, idempotent: true });
  });

  it.each(['POST', 'PATCH', 'CONNECT'])('%s is neither safe nor idempotent', (m) => {
    expect(httpMethodSemantics(m)).toMatchObject({ safe: false, idempotent: false, registered: true });
  });

  it('knows registered extension methods (WebDAV PROPFIND is safe, LOCK is not idempotent)', () => {
    expect(httpMethodSemantics('PROPFIND')).toMatchObject({ safe: true });
    expect(httpMethodSemantics('LOCK')).toMatchObject({ safe: false, idempotent: false });
  });

  it('reads a lower-cased method as its canonical form', () => {
    expect(httpMethodSemantics(' post ')).toMatchObject({ method: 'POST', idempotent: false });
  });

  it('treats an unregistered method as unsafe and non-idempotent', () => {
    expect(httpMethodSemantics('PURGE')).toEqual({
      method: 'PURGE',
      safe: false,
      idempotent: false,
      registered: false,
    });
  });
});
