import { describe, expect, it } from 'vitest';
import { redact, redactSecrets } from './redact.js';

/**
 * Real token formats. "documented" entries are the example or dummy credentials the provider (or the
 * standard) prints in its own documentation, verbatim, at the cited place; "format" entries are built
 * from the format the cited documentation describes (prefix, alphabet, length) where the provider prints
 * only placeholders. Each must be gone from the output of both redaction entry points.
 */
const CORPUS: readonly { what: string; source: string; kind: 'documented' | 'format'; text: string; secret: string }[] =
  [
    {
      what: 'AWS access key id',
      source: 'AWS IAM User Guide, "Manage access keys for IAM users" (example key)',
      kind: 'documented',
      text: 'The security token included in the request is invalid: AKIAIOSFODNN7EXAMPLE',
      secret: 'AKIAIOSFODNN7EXAMPLE',
    },
    {
      what: 'AWS secret access key, unlabelled, next to its key id',
      source: 'AWS IAM User Guide, "Manage access keys for IAM users" (example key pair)',
      kind: 'documented',
      text: 'using credentials AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY for s3',
      secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
    {
      what: 'AWS secret access key, unlabelled, with only the word AWS around it',
      source: 'AWS IAM User Guide (example secret access key)',
      kind: 'documented',
      text: 'AWS signature mismatch for wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
    {
      what: 'Azure Storage account key in a connection string',
      source: 'Microsoft Learn, "Use the Azurite emulator", well-known storage account and key',
      kind: 'documented',
      text: 'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;',
      secret: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq',
    },
    {
      what: 'Azure AD (Entra ID) client secret',
      source: 'gitleaks rule azure-ad-client-secret (3 chars, digit, "Q~", 31–34 chars)',
      kind: 'format',
      text: 'AADSTS7000215: Invalid client secret provided: abc8Q~Zq3xR8vT2mK9pL4wN7bY.k_Fd0sGh-Jw1',
      secret: 'Zq3xR8vT2mK9pL4wN7bY.k_Fd0sGh-Jw1',
    },
    {
      what: 'Google API key',
      source: 'Google Cloud, "Manage API keys" (AIza prefix, 39 characters)',
      kind: 'format',
      text: 'https://maps.googleapis.com/maps/api/geocode/json?address=x&key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
      secret: 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
    },
    {
      what: 'GCP service-account private key (JSON key file)',
      source: 'RFC 7468 §10 (PKCS #8 example), as it appears in a Google service-account key file',
      kind: 'documented',
      text: '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgVcB/UNPxalR9zDYAjQIf\\njojUDiQuGnSJrFEEzZPT/92hRANCAASc7UJtgnF/abqWM60T3XNJEzBv5ez9TdwK\\nH0M6xpM2q+53wmsN/eYLdgtjgBd3DBmHtPilCkiFICXyaA8z9LkJ\\n-----END PRIVATE KEY-----\\n"}',
      secret: 'VcB/UNPxalR9zDYAjQIf',
    },
    {
      what: 'PEM private key block',
      source: 'RFC 7468 §10, "Textual Encoding of PKCS #8 Private Key Info"',
      kind: 'documented',
      text: 'loaded key -----BEGIN PRIVATE KEY-----\nMIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgVcB/UNPxalR9zDYAjQIf\njojUDiQuGnSJrFEEzZPT/92hRANCAASc7UJtgnF/abqWM60T3XNJEzBv5ez9TdwK\nH0M6xpM2q+53wmsN/eYLdgtjgBd3DBmHtPilCkiFICXyaA8z9LkJ\n-----END PRIVATE KEY----- ok',
      secret: 'H0M6xpM2q+53wmsN',
    },
    {
      what: 'Slack bot token',
      source: 'Slack API docs, "Token types" (bot token example)',
      kind: 'documented',
      text: 'not_authed for xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
      secret: 'pdFZKVeTuE8sk7oOcBrzbqgy',
    },
    {
      what: 'Slack incoming webhook URL',
      source: 'Slack API docs, "Sending messages using incoming webhooks"',
      kind: 'documented',
      text: 'POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX returned 404',
      secret: 'XXXXXXXXXXXXXXXXXXXXXXXX',
    },
    {
      what: 'Telegram bot token',
      source: 'Telegram Bot API, "Authorizing your bot" (example token)',
      kind: 'documented',
      text: 'GET https://api.telegram.org/bot123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11/getMe failed',
      secret: 'ABC-DEF1234ghIkl-zyx57W2v1u123ew11',
    },
    {
      what: 'Discord bot token',
      source: 'Discord developer docs, "Bot users" (user id · timestamp · HMAC, base64url)',
      kind: 'format',
      text: 'discord login failed with MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs',
      secret: 'ZnCjm1XVW7vRze4b7Cq4se7kKWs',
    },
    {
      what: 'Discord webhook URL',
      source: 'Discord developer docs, "Execute Webhook" (/webhooks/{webhook.id}/{webhook.token})',
      kind: 'format',
      text: 'https://discord.com/api/webhooks/223704706495545344/3d89bb7572e0fb30d8128367b3b1b44fecd1726de135cbe28a41f8b2f777c372',
      secret: '3d89bb7572e0fb30d8128367b3b1b44fecd1726de135cbe28a41f8b2f777c372',
    },
    {
      what: 'GitHub personal access token (classic)',
      source: 'GitHub blog, "Behind GitHub\'s new authentication token formats" (ghp_ + 36 base62)',
      kind: 'format',
      text: 'remote: Invalid username or password. https://x-access-token:ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r',
      secret: '16C7e42F292c6912E7710c838347Ae178B4a',
    },
    {
      what: 'GitHub fine-grained personal access token',
      source: 'GitHub docs, "Managing your personal access tokens" (github_pat_ prefix)',
      kind: 'format',
      text: 'token github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567 rejected',
      secret: 'mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567',
    },
    {
      what: 'GitLab personal access token',
      source: 'GitLab docs, "Token overview", token prefixes (glpat-)',
      kind: 'format',
      text: 'git clone https://oauth2:glpat-Zq3xR8vT2mK9pL4wN7bY@gitlab.example.com/g/p.git',
      secret: 'Zq3xR8vT2mK9pL4wN7bY',
    },
    {
      what: 'GitLab runner authentication token',
      source: 'GitLab docs, "Token overview", token prefixes (glrt-)',
      kind: 'format',
      text: 'runner token glrt-t1_Zq3xR8vT2mK9pL4wN7bY is invalid',
      secret: 'Zq3xR8vT2mK9pL4wN7bY',
    },
    {
      what: 'Bitbucket app password',
      source: 'Atlassian, "App passwords" (ATBB prefix)',
      kind: 'format',
      text: 'bitbucket auth with ATBBZq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD failed',
      secret: 'Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD',
    },
    {
      what: 'Stripe test secret key',
      source: 'Stripe API reference, "Authentication" (sample test key printed in every example)',
      kind: 'documented',
      text: 'curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:',
      secret: '4eC39HqLyjWDarjtT1zdp7dc',
    },
    {
      what: 'Stripe test secret key (newer sample)',
      source: 'Stripe API reference, "Authentication" (sample test key)',
      kind: 'documented',
      text: "Stripe.api_key = 'sk_test_BQokikJOvBiI2HlWgH4olfQ2'",
      secret: 'BQokikJOvBiI2HlWgH4olfQ2',
    },
    {
      what: 'Square access token',
      source: 'Square developer docs, "Access tokens" (EAAA prefix; sandbox tokens alike)',
      kind: 'format',
      text: 'Authorization failed for EAAAl0Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef',
      secret: 'Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef',
    },
    {
      what: 'Square OAuth application secret',
      source: 'Square developer docs, "OAuth API" (sq0csp- prefix)',
      kind: 'format',
      text: 'client_id=sq0idp-abc&client_secret_value sq0csp-Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef',
      secret: 'Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef',
    },
    {
      what: 'OpenAI project key',
      source: 'OpenAI API reference, "Authentication" (sk-proj- keys)',
      kind: 'format',
      text: 'Incorrect API key provided: sk-proj-Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56efT3BlbkFJ0123456789',
      secret: 'Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef',
    },
    {
      what: 'Anthropic API key',
      source: 'Anthropic API docs, "Getting started" (sk-ant-api03- keys)',
      kind: 'format',
      text: 'x-api-key header invalid: sk-ant-api03-Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef-AA',
      secret: 'Zq3xR8vT2mK9pL4wN7bYk0Fd0sGh12AB34CD56ef',
    },
    {
      what: 'JWT',
      source: 'RFC 7519 §3.1, example JWT',
      kind: 'documented',
      text: 'token eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk expired',
      secret: 'dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    },
    {
      what: 'HTTP Basic credentials',
      source: 'RFC 7617 §2, example ("Aladdin" / "open sesame")',
      kind: 'documented',
      text: 'Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
      secret: 'QWxhZGRpbjpvcGVuIHNlc2FtZQ',
    },
    {
      what: 'OAuth 2.0 bearer token',
      source: 'RFC 6750 §2.1, example',
      kind: 'documented',
      text: 'GET /resource HTTP/1.1 Authorization: Bearer mF_9.B5f-4.1JqM',
      secret: 'mF_9.B5f-4.1JqM',
    },
    {
      what: 'OAuth 2.0 access and refresh tokens in a token response',
      source: 'RFC 6749 §5.1, example response',
      kind: 'documented',
      text: '{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"example","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA"}',
      secret: '2YotnFZFEjr1zCsicMWpAA',
    },
    {
      what: 'PostgreSQL connection URI with password',
      source: 'PostgreSQL docs, libpq "Connection URIs" (postgresql://user:secret@localhost)',
      kind: 'documented',
      text: 'connect ECONNREFUSED postgresql://user:secret@localhost',
      secret: ':secret@',
    },
    {
      what: 'MongoDB connection string with password',
      source: 'MongoDB docs, "Connection Strings" (percent-encoded password example)',
      kind: 'documented',
      text: 'MongoServerError: bad auth mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin',
      secret: 'D1fficultP%40ssw0rd',
    },
    {
      what: 'S3 presigned URL signature',
      source: 'AWS S3 docs, "Authenticating requests: using query parameters" (X-Amz-Signature)',
      kind: 'format',
      text: 'GET https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
      secret: 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    },
    {
      what: 'HashiCorp Vault service token',
      source: 'HashiCorp Vault docs, "Tokens" (hvs. prefix)',
      kind: 'format',
      text: 'permission denied for hvs.CAESIJRM1ZXv4m9eJ8c7bH0Zq3xR8vT2mK9pL4wN7bY',
      secret: 'CAESIJRM1ZXv4m9eJ8c7bH0Zq3xR8vT2mK9pL4wN7bY',
    },
  ];

/** Text that looks technical but holds no credential: it must come back unchanged. */
const KEPT: readonly string[] = [
  'arn:aws:iam::123456789012:user/alice is not authorized to perform s3:GetObject',
  'aws deploy of commit 3f786850e387550fdab836ed7e6dc881de23001b failed',
  'request 9b2c1a4e-4a5b-4d2e-9f3a-1c2b3d4e5f60 throttled; retry after 2026-11-29T10:00:00Z',
  'max_tokens: 4096, token_type: bearer, key_id: 7',
  's3://examplebucket/reports/2026/11/summary.csv',
  'https://api.example.com:8443/v1/items?page=2&sort=desc',
  'duplicate key value violates unique constraint "orders_pkey"',
  'apiVersion: apps/v1, kind: Deployment, replicas: 3',
];

describe('token corpus: real formats from the providers’ documentation', () => {
  it.each(CORPUS.map((c) => [`${c.what} (${c.kind}: ${c.source})`, c] as const))('%s', (_name, entry) => {
    expect(redact(entry.text)).not.toContain(entry.secret);
    expect(redactSecrets(entry.text)).not.toContain(entry.secret);
    expect(redact(entry.text)).toContain('[REDACTED:');
  });

  it.each(KEPT)('keeps %s', (text) => {
    expect(redact(text)).toBe(text);
    expect(redactSecrets(text)).toBe(text);
  });
});
