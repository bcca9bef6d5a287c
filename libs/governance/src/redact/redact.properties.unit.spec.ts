import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

const chars = (alphabet: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const HEX = DIGITS + 'abcdef';
const B64URL = ALNUM + '-_';

// Text that holds no secret by construction: no upper case, no ":", "=", "@", "-", "_", "." or quote,
// so no provider prefix, key=value, URL, address or header can form in it.
const SAFE = `${LOWER}${DIGITS} ,!?()\n`;
const safeText = chars(SAFE, 0, 60);

// A secret value with an upper-case letter, so it can never occur by chance in safe text.
const secretValue = fc
  .tuple(chars(UPPER, 1, 1), chars(ALNUM + '!*~', 11, 40))
  .map(([a, b]) => a + b)
  .filter((s) => !s.includes('REDACTED'));

const base64 = (text: string): string => btoa(text);

/** [the text to plant, the secret that must not survive] for every family redact knows. */
const planted: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  chars(ALNUM, 40, 60).map((k) => [`sk-proj-${k}`, k] as const),
  chars(ALNUM, 48, 48).map((k) => [`sk-${k}`, k] as const),
  chars(B64URL, 80, 95).map((k) => [`sk-ant-api03-${k}`, k] as const),
  fc.tuple(fc.constantFrom('AKIA', 'ASIA'), chars(UPPER + DIGITS, 16, 16)).map(([p, k]) => [p + k, p + k] as const),
  secretValue.map((k) => [`aws_secret_access_key=${k}`, k] as const),
  fc
    .tuple(fc.constantFrom('ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_'), chars(ALNUM, 36, 36))
    .map(([p, k]) => [p + k, k] as const),
  chars(ALNUM + '_', 82, 82).map((k) => [`github_pat_${k}`, k] as const),
  fc
    .tuple(fc.constantFrom('xoxb', 'xoxp', 'xoxa', 'xoxr', 'xoxs'), chars(DIGITS, 12, 13), chars(ALNUM, 24, 32))
    .map(([p, n, k]) => [`${p}-${n}-${k}`, k] as const),
  fc
    .tuple(fc.constantFrom('sk_live_', 'rk_live_', 'sk_test_'), chars(ALNUM, 24, 99))
    .map(([p, k]) => [p + k, k] as const),
  chars(B64URL, 35, 35).map((k) => [`AIza${k}`, k] as const),
  chars(HEX, 32, 32).map((k) => [`SK${k}`, k] as const),
  fc.tuple(chars(B64URL, 22, 22), chars(B64URL, 43, 43)).map(([a, b]) => [`SG.${a}.${b}`, `${a}.${b}`] as const),
  fc
    .tuple(chars(B64URL, 10, 40), chars(B64URL, 10, 60), chars(B64URL, 20, 43))
    .map(([h, p, s]) => [`eyJ${h}.eyJ${p}.${s}`, `${h}.eyJ${p}.${s}`] as const),
  secretValue.map((k) => [`Authorization: Bearer ${k}`, k] as const),
  fc.tuple(chars(ALNUM, 12, 40), chars(DIGITS, 1, 2)).map(([a, d]) => [`Bearer ${a}${d}`, `${a}${d}`] as const),
  chars(ALNUM + '-._~+/', 16, 64).map((t) => [`Bearer ${t}`, t] as const),
  fc
    .tuple(chars(LOWER, 3, 10), secretValue)
    .map(([u, p]) => [`Authorization: Basic ${base64(`${u}:${p}`)}`, base64(`${u}:${p}`)] as const),
  fc
    .tuple(chars(LOWER, 3, 10), secretValue)
    .map(([u, p]) => [`Basic ${base64(`${u}:${p}`)}`, base64(`${u}:${p}`)] as const),
  fc
    .tuple(fc.constantFrom('postgres', 'mysql', 'https', 'amqp', 'redis'), chars(LOWER, 1, 10), secretValue)
    .map(([scheme, user, pass]) => [`${scheme}://${user}:${pass}@db.internal:5432/app`, pass] as const),
  secretValue.map((k) => [`Host=db;Username=app;Password=${k};Pooling=true`, k] as const),
  fc
    .tuple(
      fc.constantFrom(
        'password',
        'secret',
        'token',
        'api_key',
        'apikey',
        'access_token',
        'refresh_token',
        'client_secret',
      ),
      secretValue,
    )
    .map(([key, k]) => [`{"${key}": "${k}"}`, k] as const),
  fc
    .tuple(fc.constantFrom('password', 'api_key', 'token', 'client_secret'), secretValue)
    .map(([key, k]) => [`${key}=${k}`, k] as const),
  chars(ALNUM + '+/', 64, 256).map(
    (k) => [`-----BEGIN RSA PRIVATE KEY-----\n${k}\n-----END RSA PRIVATE KEY-----`, k] as const,
  ),
  fc
    .tuple(chars(LOWER + DIGITS + '._+', 1, 20), chars(LOWER, 2, 12), fc.constantFrom('com', 'io', 'co.uk', 'dev'))
    .map(([local, domain, tld]) => [`${local}x@${domain}.${tld}`, `${local}x@${domain}.${tld}`] as const),
);

describe('redact properties', () => {
  it('removes every planted secret, whatever text surrounds it', () => {
    fc.assert(
      fc.property(safeText, planted, safeText, (before, [text, secret], after) => {
        const out = redact(`${before} ${text} ${after}`);
        expect(out).not.toContain(secret);
        expect(out).toContain('[REDACTED:');
      }),
      { numRuns: 600 },
    );
  });

  it('removes several secrets planted in one text', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(safeText, planted), { minLength: 2, maxLength: 5 }), (parts) => {
        const out = redact(parts.map(([t, [s]]) => `${t} ${s}`).join(' '));
        for (const [, [, secret]] of parts) expect(out).not.toContain(secret);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves text without secrets unchanged (safe alphabet)', () => {
    fc.assert(
      fc.property(chars(SAFE, 0, 400), (text) => {
        expect(redact(text)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(redact(redact(text))).toBe(redact(text));
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent on text with planted secrets', () => {
    fc.assert(
      fc.property(safeText, planted, safeText, (a, [s], b) => {
        const once = redact(`${a}${s}${b}`);
        expect(redact(once)).toBe(once);
      }),
      { numRuns: 400 },
    );
  });

  it('is idempotent on adversarial mixtures of secret-shaped fragments', () => {
    const fragment = fc.constantFrom(
      'password',
      'token',
      'api_key',
      'Authorization',
      'Cookie',
      'Bearer ',
      'Basic ',
      '=',
      ':',
      ': ',
      '"',
      "'",
      ' ',
      ';',
      '&',
      '@',
      '://',
      'eyJ',
      '.',
      'sk-',
      'ant-',
      'proj-',
      'AKIA',
      'ghp_',
      'xoxb-',
      'SG.',
      'AIza',
      'x.com',
      'user',
      'Ab3dEf9hIj0kLm2nOp4q',
      'dXNlcjpwYXNz',
      '[REDACTED:jwt]',
      '[REDACTED',
      ']',
      '-----BEGIN PRIVATE KEY-----',
      '-----END PRIVATE KEY-----',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), (parts) => {
        const once = redact(parts.join(''));
        expect(redact(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});
