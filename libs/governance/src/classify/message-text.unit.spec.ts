import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageMeaning, notSentPhrase, outputContractBroken } from './message-text.js';

// Phrases of every pattern, so texts often hold several (order decides which one speaks).
const PHRASES = [
  'connection refused',
  'Connection Refused',
  'could not connect to server',
  'name or service not known',
  'temporary failure in name resolution',
  'rate limit',
  'quota exceeded',
  'permission denied',
  'socket hang up',
  'timed out',
  'service unavailable',
  'already exists',
  'not found',
  'conflict',
  'invalid',
  ' ',
  ': ',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PHRASES), fc.string({ maxLength: 5 })), { maxLength: 5 })
  .map((parts) => parts.join(' '));

describe('notSentPhrase: messageMeaning, only when it proves the request never left', () => {
  it('agrees with messageMeaning for any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const meaning = messageMeaning(t);
        expect(notSentPhrase(t)).toEqual(meaning?.effect === 'not_sent' ? meaning : null);
      }),
      { numRuns: 2000 },
    );
  });

  it('lets an earlier phrase speak first, as messageMeaning does', () => {
    expect(notSentPhrase('connection refused')?.reason).toBe('message:connection_refused');
    expect(notSentPhrase('permission denied: connection refused')).toBeNull();
    expect(notSentPhrase(null)).toBeNull();
  });
});

describe('messageMeaning: schema validators and payment refusals', () => {
  it.each([
    "Input validation error: 'owner' is a required property",
    "'abc' is not of type 'integer'",
    '1 validation error for CreateIssue\ntitle\n  Field required',
    'Input should be a valid integer, unable to parse string as an integer',
    'Expected string, received number',
    "Additional properties are not allowed ('colour' was unexpected)",
  ])('reads %j as validation', (text) => {
    expect(messageMeaning(text)?.failureClass).toBe('validation');
  });

  it('reads a declined payment as validation: its details must change', () => {
    expect(messageMeaning('Your card was declined.')?.reason).toBe('message:payment_declined');
    expect(messageMeaning('Transaction declined by issuer')?.failureClass).toBe('validation');
  });
});

describe('outputContractBroken: the tool’s own answer broke its declared output schema', () => {
  it('is an invariant violation whose effect is unknown (the tool ran)', () => {
    const meaning = outputContractBroken(
      'Output validation error: Invalid structured content for tool create_ticket: [{"code":"invalid_type"}]',
    );
    expect(meaning).toMatchObject({ failureClass: 'invariant_violation', effect: 'indeterminate' });
    expect(
      outputContractBroken('Output validation error: Tool x has an output schema but no structured content'),
    ).not.toBeNull();
  });

  it('says nothing of an input that failed validation, or of no text', () => {
    expect(outputContractBroken("Input validation error: 'owner' is a required property")).toBeNull();
    expect(outputContractBroken(null)).toBeNull();
  });
});

describe('messageMeaning: denials, absences and refusals as tools word them', () => {
  it.each([
    ['API token is invalid.', 'permission'],
    ['The caller does not have permission', 'permission'],
    ['ERROR: Permission to acme/web.git denied to agent-bot.', 'permission'],
    [
      'The sites robots.txt (https://x/robots.txt), specifies that autonomous fetching of this page is not allowed',
      'permission',
    ],
    ['Error response from daemon: No such container: 4f2a', 'missing_resource'],
    [
      'Could not find page with ID: 5983. Make sure the relevant pages are shared with your integration.',
      'missing_resource',
    ],
    ["Error: Cannot find module 'left-pad'", 'missing_resource'],
    ['body failed validation: body.parent.page_id should be a valid uuid', 'validation'],
    ["locator.click: Error: strict mode violation: locator('button') resolved to 3 elements", 'validation'],
  ])('reads %j as %s', (text, failureClass) => {
    expect(messageMeaning(text)?.failureClass).toBe(failureClass);
  });

  it('keeps schema wording that says "not allowed" a validation, not a denial', () => {
    expect(messageMeaning("Additional properties are not allowed ('colour' was unexpected)")?.failureClass).toBe(
      'validation',
    );
  });
});

describe('messageMeaning: SaaS clients’ wording', () => {
  it.each([
    ['Issue does not exist or you do not have permission to see it.', 'missing_resource'],
    ['Authentication credentials were not provided.', 'permission'],
    ["Couldn't authenticate you", 'permission'],
    ['JWT expired', 'permission'],
    ['Request had insufficient authentication scopes.', 'permission'],
    ['The user has not granted the app 123 write access to the file 1AbC.', 'permission'],
    ['The API key provided is invalid.', 'permission'],
    ["The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", 'validation'],
    ["The 'To' number +15005550001 is not a valid phone number.", 'validation'],
    ["Email can't be blank", 'validation'],
  ])('reads %j as %s', (text, failureClass) => {
    expect(messageMeaning(text)?.failureClass).toBe(failureClass);
  });
});

describe('messageMeaning: CLIs, package managers and HTTP clients in other languages', () => {
  it.each([
    ["SQL compilation error:\nObject 'ANALYTICS.PUBLIC.ORDERZ' does not exist or not authorized.", 'missing_resource'],
    ["Resource group 'rg-nope' could not be found.", 'missing_resource'],
    ['The system cannot be found', 'missing_resource'],
    ['error: no matching package named `serde_jsn` found', 'missing_resource'],
    ['No matching distribution found for reqeusts', 'missing_resource'],
    ['reading github.com/acme/lib/go.mod at revision v1.2.3: unknown revision v1.2.3', 'missing_resource'],
    ["fatal: ambiguous argument 'nope': unknown revision or path not in the working tree.", 'missing_resource'],
    ["Quota 'CPUS' exceeded.  Limit: 24.0 in region us-central1.", 'permission'],
    [
      "The client 'a@b.c' with object id '0' does not have authorization to perform action 'Microsoft.Resources/x/write' over scope '/s' or the scope is invalid.",
      'permission',
    ],
    ["System.UnauthorizedAccessException: Access to the path 'C:\\data\\x.csv' is denied.", 'permission'],
    ['You do not currently have an active account selected.', 'permission'],
    ["Please run 'az login' to setup account.", 'permission'],
    ['You must be logged in to publish packages.', 'permission'],
    ['Error: INSTALLATION FAILED: cannot re-use a name that is still in use', 'invariant_violation'],
    ['The username is already taken', 'invariant_violation'],
    ['The connection to the server localhost:8080 was refused - did you specify the right host or port?', 'transient'],
    // Sixteenth probe: infrastructure and delivery tooling.
    ['{"message":{"name":["has already been taken"]}}', 'invariant_violation'],
    ['Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress', 'transient'],
    ['error: [409] Conflict: Another update is currently in progress.', 'transient'],
    ['Another operation on this or dependent resource is in progress.', 'transient'],
    ['406 Branch cannot be merged', 'invariant_violation'],
    ['Pull Request is not mergeable', 'invariant_violation'],
    ['HttpError: Resource not accessible by integration', 'permission'],
    ['Resource not accessible by personal access token', 'permission'],
    [
      'Resource protected by organization SAML enforcement. You must grant your Personal Access token access.',
      'permission',
    ],
    [
      "Permission 'resourcemanager.projects.setIamPolicy' denied on resource 'projects/demo' (or it may not exist).",
      'permission',
    ],
    ['{"code":9109,"message":"Invalid access token"}', 'permission'],
    [
      "The zone 'projects/p/zones/us-central1-a' does not have enough resources available to fulfill the request.  Try a different zone, or try again later.",
      'transient',
    ],
  ])('reads %j as %s', (text, failureClass) => {
    expect(messageMeaning(text)?.failureClass).toBe(failureClass);
  });

  it.each([
    ['The operation is in progress; poll its status', 'message:operation_in_progress'],
    ['The branch was merged yesterday', 'message:not_mergeable'],
    ["Permission 'storage.objects.get' is required", 'message:grant_does_not_reach'],
  ])('does not read the near miss %j as %s', (text, reason) => {
    expect(messageMeaning(text)?.reason).not.toBe(reason);
  });

  it.each([
    'Get "https://internal.example.com/": x509: certificate signed by unknown authority',
    'x509: certificate has expired or is not yet valid',
    'javax.net.ssl.SSLHandshakeException: PKIX path building failed: unable to find valid certification path to requested target',
    'curl: (60) SSL certificate problem: unable to get local issuer certificate',
    '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self signed certificate in certificate chain',
  ])('reads %j as an untrusted certificate: an invariant, and the request never left', (text) => {
    const meaning = messageMeaning(text);
    expect(meaning?.reason).toBe('message:certificate_untrusted');
    expect(meaning?.failureClass).toBe('invariant_violation');
    expect(meaning?.effect).toBe('not_sent');
  });

  it('reads only a quoted or prompted command as a CLI asking to log in', () => {
    expect(messageMeaning('Please run:\n\n  $ gcloud auth login')?.failureClass).toBe('permission');
    expect(messageMeaning('failed to run the login hook')).toBeNull();
  });

  it('reads a refused connection to a named server as never sent', () => {
    expect(messageMeaning('The connection to the server 10.0.0.1:6443 was refused')?.effect).toBe('not_sent');
  });
  it("reads the twelfth probe's phrases: unverified senders, spent credits, missing tokens, states already reached", () => {
    const cases: Array<[string, string, string]> = [
      [
        'MessageRejected: Email address is not verified. The following identities failed the check',
        'unverified_identity',
        'permission',
      ],
      ['The from address does not match a verified Sender Identity.', 'unverified_identity', 'permission'],
      ['Maximum credits exceeded', 'quota_exhausted', 'permission'],
      ['Request does not contain a valid Server token.', 'permission_denied', 'permission'],
      ['nats: authorization violation', 'permission_denied', 'permission'],
      ['Incident Already Resolved', 'already_done', 'invariant_violation'],
      ['Pull request has already been merged', 'already_done', 'invariant_violation'],
      ["GraphQL: Could not resolve to a Repository with the name 'o/r'. (repository)", 'not_found', 'missing_resource'],
    ];
    for (const [text, reason, failureClass] of cases) {
      const meaning = messageMeaning(text);
      expect([text, meaning?.reason, meaning?.failureClass]).toEqual([text, `message:${reason}`, failureClass]);
    }
    // A host name that does not resolve stays a connect failure, not an absent object.
    expect(messageMeaning('Could not resolve host: api.example.com')?.reason).toBe('message:connection_refused');
    expect(messageMeaning('the deployment is already in progress')?.reason).not.toBe('message:already_done');
  });

  it('reads LangChain\'s "Could not parse LLM output" as the answer breaking its declared form', () => {
    expect(outputContractBroken('OutputParserException: Could not parse LLM output: `hi`')?.failureClass).toBe(
      'invariant_violation',
    );
    expect(outputContractBroken('could not parse the request body')).toBeNull();
  });
  it("reads the thirteenth probe's templates: graphql-js validation, Puppeteer, nginx, Windows and Algolia texts", () => {
    const cases: Array<[string, string, string]> = [
      ['Cannot query field "emial" on type "User". Did you mean "email"?', 'invalid_request', 'validation'],
      ['Unknown argument "limit" on field "Query.users".', 'invalid_request', 'validation'],
      ['Unknown type "Usr". Did you mean "User"?', 'invalid_request', 'validation'],
      ['Variable "$id" of required type "ID!" was not provided.', 'invalid_request', 'validation'],
      ['No element found for selector: #submit', 'not_found', 'missing_resource'],
      ['504 Gateway Time-out', 'timed_out', 'transient'],
      ['The file exists.', 'already_exists', 'invariant_violation'],
      ['The directory is not empty.', 'directory_not_empty', 'invariant_violation'],
      ['Invalid Application-ID or API key', 'permission_denied', 'permission'],
    ];
    for (const [text, reason, failureClass] of cases) {
      const meaning = messageMeaning(text);
      expect([text, meaning?.reason, meaning?.failureClass]).toEqual([text, `message:${reason}`, failureClass]);
    }
    // An unknown word in prose, or "the file exists" in running text, is not one of these templates.
    expect(messageMeaning('unknown type of failure')).toBeNull();
    expect(messageMeaning('check whether the file exists before reading')).toBeNull();
  });
});

describe('messageMeaning: URLs name places, Chromium names network failures', () => {
  it('reads no phrase out of a URL', () => {
    expect(messageMeaning('GET https://api.example.com/v1/forbidden-words failed: socket hang up')?.reason).toBe(
      'message:connection_lost',
    );
    expect(messageMeaning('fetch https://app.example.invalid/not-found-page')).toBeNull();
    expect(notSentPhrase('POST https://x.example/connection-refused-docs answered 500')).toBeNull();
  });

  it('still reads the words around a URL', () => {
    expect(messageMeaning("fatal: repository 'https://github.com/acme/nope.git/' not found")?.failureClass).toBe(
      'missing_resource',
    );
  });

  it.each([
    ['page.goto: net::ERR_NAME_NOT_RESOLVED at https://app.example.invalid/', 'transient', 'not_sent'],
    ['page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/', 'transient', 'not_sent'],
    ['page.goto: net::ERR_CERT_AUTHORITY_INVALID at https://self-signed.example/', 'invariant_violation', 'not_sent'],
    ['page.goto: net::ERR_EMPTY_RESPONSE at http://localhost:3000/submit', 'transient', 'indeterminate'],
  ])('reads %j as %s, effect %s', (text, failureClass, effect) => {
    expect(messageMeaning(text)).toMatchObject({ failureClass, effect });
  });
});
