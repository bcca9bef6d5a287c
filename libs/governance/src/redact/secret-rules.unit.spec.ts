import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from './secret-rules.js';

// Prefixes and whole examples of every family, so generated text often holds a hit or a near-miss.
const PIECES = [
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----',
  '-----BEGIN PRIVATE KEY-----',
  'postgres://app:hunter2@db',
  'https://user:pa/ss@word@db.internal/x ',
  'bearer ',
  'dpop ',
  'Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnagMDAu',
  'NTLM ',
  'basic dXNlcjpodW50ZXIy',
  'Digest username="bob", response="6629fae49393a05397450978507c4ef1"',
  'AWS4-HMAC-SHA256 Credential=x/y, Signature=',
  "CREATE ROLE app PASSWORD 'hunter2' ",
  'ALTER USER scott IDENTIFIED BY ',
  "IDENTIFIED BY 'tiger' ",
  '-----BEGIN CERTIFICATE-----',
  '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----',
  '?code=',
  '&client_assertion=',
  'LTAI5tQ8x9LmN3pR7vK2wY4z ',
  'AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA ',
  'GOOG1EXAMPLE0123456789ABCDEFGHIJKLMN ',
  'twilio 0123456789abcdef0123456789abcdef',
  'accountname=x ',
  'gcs_hmac PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA+ ',
  'aliyun RIBXuDL7DxtpYlSXpfKtHF4vUCsMeh ',
  'tencent GAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8 ',
  'azure I8ihN5KXSc7Tvo+hBKqFYY+kv5ZJr3J1TWDtkwtDDb/xHKas1VOqg6YYZYn9ZhyiA4uoRgnatmUdjAWtGSU8po== ',
  'lin_api_0123456789abcdefghij0123456789ABCDEFGHIJ ',
  'DB_PASS=',
  'signing_key: ',
  '--password ',
  '-u admin:',
  'redis://:pw@cache',
  'https://Zq3xR8vT2mK9pL4wN7bY@',
  'aws wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'discord MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs',
  'https://discord.com/api/webhooks/123/',
  '1234567:AAxy',
  'EAAA',
  'sq0csp-',
  'ABSK' + 'QmVkcm9ja0FQSUtleS1'.repeat(6),
  'abc8Q~xy',
  'glrt-',
  'GR1348941',
  'ATBB',
  'ATATT3',
  'pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC',
  'hvs.',
  'dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  'shpat_0123456789abcdef0123456789abcdef',
  'dapi0123456789abcdef0123456789abcdef',
  'PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01',
  'apiKeyId=Zq3xR8vT2mK9pL4w',
  'Authorization: ',
  'proxy-authorization=',
  'Set-Cookie: ',
  'cookie: ',
  'Bearer ',
  'Basic dXNlcjpwYXNzd29yZA==',
  'Basic ',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.',
  'eyJ',
  'sk-ant-',
  'sk-proj-',
  'sk-',
  'sk_live_',
  'rk_test_',
  'whsec_',
  'AKIA',
  'ASIA',
  'AKIAIOSFODNN7EXAMPLE',
  'ghp_',
  'github_pat_',
  'xoxb-',
  'xapp-',
  'https://hooks.slack.com/services/',
  'AIza',
  'ya29.',
  'SK0123456789abcdef0123456789abcdef',
  'AC0123456789abcdef0123456789abcdef',
  'SG.ngeVfQFYQlKU0ufo8x5d1A.',
  'npm_',
  'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  'glpat-',
  'hf_',
  '"password": "',
  '{"password": "hunter2"}',
  "'api_key': '",
  'client_secret=',
  'access-token: ',
  'credentials=',
  'Signature=',
  'bob@example.com',
  'x@',
  '[REDACTED:x]',
];
const BODY = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const token = fc
  .tuple(
    fc.constantFrom(...PIECES),
    fc.string({ unit: fc.constantFrom(...BODY), maxLength: 100, size: 'max' }),
    fc.constantFrom('', ' ', '"', "'", '.com', '@'),
    // Case changes: a case-insensitive pattern must still pass its lower-case check.
    fc.constantFrom<(s: string) => string>(
      (s) => s,
      (s) => s,
      (s) => s.toUpperCase(),
      (s) => s.toLowerCase(),
    ),
  )
  .map(([piece, body, end, recase]) => recase(piece) + body + end);
const text = fc.array(fc.oneof(token, fc.string({ maxLength: 6 })), { maxLength: 5 }).map((parts) => parts.join(' '));

type Rule = (typeof SECRET_RULES)[number];
/** What redact() checks before running a rule's regex. */
const triggered = (rule: Rule, t: string) => {
  const seen = rule.pattern.ignoreCase ? t.toLowerCase() : t;
  return rule.triggers.some((trigger) => seen.includes(trigger));
};
/**
 * Whether the rule changes `t`. Rules whose replacement decides (a name's words, an entropy test, a
 * decoding) match more than they change: the triggers must cover what they change.
 */
const changes = (rule: Rule, t: string): boolean =>
  (rule.context === undefined || rule.context.test(t)) &&
  t.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string) !== t;

describe('secret rules: a text without any of its triggers is one the pattern cannot match', () => {
  it('holds on an example of every family (each rule matches at least one)', () => {
    for (const rule of SECRET_RULES) {
      const examples = PIECES.map((p) => `${p}abcdefghij0123456789ABCDEFGHIJ `).concat(PIECES.map((p) => `${p} `));
      const matched = examples.filter((e) => changes(rule, e));
      expect(matched.length, `no example matches ${rule.kind}`).toBeGreaterThan(0);
      for (const e of matched) expect(triggered(rule, e), `${rule.kind} on ${e}`).toBe(true);
    }
  });

  SECRET_RULES.forEach((rule, i) => {
    it(`${rule.kind} (rule ${i}): triggered whenever the rule changes the text`, () => {
      fc.assert(
        fc.property(text, (t) => {
          if (changes(rule, t)) expect(triggered(rule, t)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  });

  it('plain prose triggers no rule, so most receipts skip every regex', () => {
    const prose = 'HTTP 503 Service Unavailable: upstream unavailable';
    const skipped = SECRET_RULES.filter((r) => !triggered(r, prose));
    expect(skipped.map((r) => r.kind)).toEqual(SECRET_RULES.map((r) => r.kind));
  });
});
