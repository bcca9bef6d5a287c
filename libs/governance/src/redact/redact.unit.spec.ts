import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

describe('redact', () => {
  it.each([
    ['Authorization: Bearer abc123.def-456', 'Authorization: Bearer [REDACTED:credentials]'],
    ['authorization=Token 9f8e7d6c5b4a', 'authorization=Token [REDACTED:credentials]'],
    ['"Authorization": "Basic dXNlcjpwYXNz"', '"Authorization": "Basic [REDACTED:credentials]"'],
    ['curl -H "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_part" x', 'curl -H "Bearer [REDACTED:bearer_token]" x'],
    ['Basic YWxhZGRpbjpvcGVuc2VzYW1l sent', 'Basic [REDACTED:basic_auth] sent'],
    [
      'token eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk4 expired',
      'token [REDACTED:jwt] expired',
    ],
    ['key sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789-xyz leaked', 'key [REDACTED:anthropic_key] leaked'],
    [
      'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123',
      'Incorrect API key provided: [REDACTED:openai_key]',
    ],
    ['AKIAIOSFODNN7EXAMPLE is the id', '[REDACTED:aws_access_key_id] is the id'],
    [
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_secret_access_key = [REDACTED:aws_secret_access_key]',
    ],
    ['push with ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 failed', 'push with [REDACTED:github_token] failed'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', '[REDACTED:github_token]'],
    ['slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', 'slack [REDACTED:slack_token]'],
    [
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      'https://hooks.slack.com/services/[REDACTED:slack_webhook]',
    ],
    [
      'stripe sk_live_51HxAbCdEfGhIjKlMnOpQrSt and rk_test_AbCdEf0123456789',
      'stripe [REDACTED:stripe_key] and [REDACTED:stripe_key]',
    ],
    ['maps AIzaSyA-1234567890abcdefghijklmnopqrstu', 'maps [REDACTED:google_api_key]'],
    ['twilio SK0123456789abcdef0123456789abcdef', 'twilio [REDACTED:twilio_key]'],
    ['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', '[REDACTED:sendgrid_key]'],
    ['postgres://app:s3cr3t!@db.internal:5432/shop', 'postgres://app:[REDACTED:password]@db.internal:5432/shop'],
    ['redis://:hunter2@cache:6379/0', 'redis://:[REDACTED:password]@cache:6379/0'],
    [
      'Server=db;Database=shop;User Id=app;Password=Pa55w0rd;Encrypt=true',
      'Server=db;Database=shop;User Id=app;Password=[REDACTED:password];Encrypt=true',
    ],
    [
      "host=db user=app password='my pass' sslmode=require",
      "host=db user=app password='[REDACTED:password]' sslmode=require",
    ],
    [
      '{"username":"bob","password":"p@ss\\"word","db":"x"}',
      '{"username":"bob","password":"[REDACTED:password]","db":"x"}',
    ],
    [
      "{'client_secret': 'abc123', 'grant_type': 'client_credentials'}",
      "{'client_secret': '[REDACTED:secret]', 'grant_type': 'client_credentials'}",
    ],
    [
      '?access_token=ya29xyz&refresh_token=1//0gabc&page=2',
      '?access_token=[REDACTED:secret]&refresh_token=[REDACTED:secret]&page=2',
    ],
    ['x-api-key: 0123456789abcdef', 'x-api-key: [REDACTED:secret]'],
    ['Cookie: session=abc123; csrftoken=xyz', 'Cookie: [REDACTED:cookie]'],
    ['contact alice.smith+ops@example.co.uk now', 'contact [REDACTED:email] now'],
    [
      'cert -----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcd==\n-----END RSA PRIVATE KEY----- done',
      'cert [REDACTED:private_key] done',
    ],
    ['cut off -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA', 'cut off [REDACTED:private_key]'],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  describe('leaves ordinary text alone', () => {
    it.each([
      'Bearer authentication is required',
      'Basic usage: run the tool',
      'max_tokens: 1024, token_type: bearer',
      'password authentication failed for user "app"',
      'HTTP 403 Forbidden: Resource not accessible by integration',
      'duplicate key value violates unique constraint "orders_pkey"',
      'https://api.example.com:8443/v1/items?page=2',
      'sk-short is not a key',
    ])('%s', (text) => {
      expect(redact(text)).toBe(text);
    });
  });

  it('is idempotent on its own output', () => {
    const once = redact(
      'postgres://u:p@h/db Authorization: Bearer abc.def-123 {"token":"sk-proj-AbCdEfGhIjKlMnOpQrStUvWx"}',
    );
    expect(redact(once)).toBe(once);
  });

  it('refuses a non-string with a clear error', () => {
    expect(() => redact(undefined as unknown as string)).toThrow('redact(): expected a string, got undefined');
  });
});
