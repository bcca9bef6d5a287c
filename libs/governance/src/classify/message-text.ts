import {
  concurrencyConflict,
  invariant,
  meaningOf,
  missingResource,
  permission,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';
import { memoiseByText } from '../support/text-memo.js';

// An absent host name, as the errno table reads ENOTFOUND: a missing resource, and the request never left.
const hostUnknown = (): Semantics => ({ ...missingResource(), effect: 'not_sent' });

/**
 * The last resort: phrases in free text. Used only when no code says anything specific, either alone
 * or to refine a catch-all code (HTTP 400, SQLSTATE class fallback…). Each pattern is a phrase that
 * means one thing wherever it appears; ambiguous words ("error", "failed") are deliberately absent.
 * Order matters: a quota measured per second/minute is a rate limit; otherwise a quota or bill is a
 * person's decision; permission phrases come before "invalid" because "invalid token" is a denial.
 */
const PATTERNS: ReadonlyArray<readonly [string, RegExp, Semantics]> = [
  // Chromium's network error codes (net/base/net_error_list.h) as Playwright and Puppeteer print them
  // ("page.goto: net::ERR_NAME_NOT_RESOLVED at …"): codes, so they speak before any phrase. A connect-phase
  // failure never wrote the request; a reset, an empty answer or an operation timeout may have followed it.
  [
    'chromium_not_sent',
    /\bnet::ERR_(?:NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|CONNECTION_REFUSED|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|CONNECTION_TIMED_OUT|PROXY_CONNECTION_FAILED)\b/,
    transient('not_sent'),
  ],
  ['chromium_certificate', /\bnet::ERR_CERT_[A-Z_]+\b/, invariant('not_sent')],
  [
    'chromium_connection_lost',
    /\bnet::ERR_(?:CONNECTION_RESET|CONNECTION_CLOSED|CONNECTION_ABORTED|EMPTY_RESPONSE|TIMED_OUT|HTTP2_PROTOCOL_ERROR)\b/,
    transient('indeterminate'),
  ],
  // A limit stated per day, in the APIs' documented words: Google's dailyLimitExceeded ("Daily Limit Exceeded"),
  // LinkedIn's "Resource level throttle APPLICATION DAY limit for calls to this resource is reached." (limits reset at
  // midnight UTC), Zoom's "maximum daily rate limit", X's 185 "User is over daily status update limit.". A day's
  // allowance refills beyond any retry budget, like a quota: a person must act. Ahead of "rate limit".
  [
    'daily_limit',
    /\bdaily (?:rate |usage |request )?limit (?:exceeded|reached|has been reached)\b|\b(?:maximum|over) daily (?:[\w-]+ ){0,3}limit\b|\bday limit for calls\b/i,
    permission(),
  ],
  [
    'rate_limited',
    /\brate[- ]?limit|\btoo many requests\b|\bthrottl|\bslow down\b|\bquota\b[^.]{0,80}\bper (?:second|minute|100 seconds)\b/i,
    transient('rejected'),
  ],
  // The same idempotency key is held by a request still in progress (the IETF Idempotency-Key draft's error
  // scenario, a 409 "A request is outstanding for this Idempotency-Key"; Stripe's idempotency_key_in_use text): this
  // request did nothing; retried later with the same key, the server answers with the original's result. Ahead of
  // "try again later".
  [
    'idempotency_key_in_flight',
    /\b(?:a request is outstanding for this idempotency[- ]key|another in-progress request using this idempotent key|(?:same|this) idempotency[- ]key\b[^.\n]{0,60}\b(?:is being processed|is (?:still )?in progress|is outstanding))/i,
    transient('rejected'),
  ],
  // A request rate stated as a number per second or minute ("Exceeded 2 calls per second for api client", Shopify's
  // REST limit): the allowance refills within a backoff.
  ['calls_per_interval', /\bexceeded \d+ (?:calls|requests) per (?:second|minute)\b/i, transient('rejected')],
  [
    'quota_exhausted',
    /\bexceeded your (?:current )?quota\b|\bcredit balance is too low\b|\bspend(?:ing)? limit\b|\bbilling (?:hard )?limit\b|\bbilling is not active\b|\bquota (?:'[^'\n]{1,80}' |"[^"\n]{1,80}" )?(?:exceeded|exhausted)\b|\binsufficient[_ ]quota\b|\binsufficient funds\b|\bcredits? (?:exceeded|exhausted)\b/i,
    permission(),
  ],
  [
    // A write that reached a replica or standby (after a failover): reconnect to the primary.
    'read_only_replica',
    /\bread[- ]only (?:replica|transaction|mode|node|server|database)\b|\bagainst a read[- ]only replica\b|\b(?:running|started) with the --(?:super-)?read-only option\b|\bin recovery mode\b|\bnot (?:the )?(?:master|primary|writable primary)\b(?! key)/i,
    transient('rejected'),
  ],
  // The server's host key is not the one on record: a security invariant, like an untrusted certificate.
  [
    'host_key_changed',
    /\bhost key verification failed\b|\bremote host identification has changed\b/i,
    invariant('not_sent'),
  ],
  // A server certificate the client cannot trust, in the clients' own words: Go's crypto/x509 ("x509: certificate
  // signed by unknown authority", "certificate has expired or is not yet valid", "certificate is valid for a, not
  // b"), Java's PKIX validator ("PKIX path building failed", "unable to find valid certification path to requested
  // target"), curl's exit 60 ("SSL certificate problem: …") and OpenSSL's verify texts. The handshake failed before
  // any request was written, and a retry only repeats it (errno.ts reads Node's CERT_… codes the same way).
  [
    'certificate_untrusted',
    /\bx509: certificate\b|\bcertificate signed by unknown authority\b|\bPKIX path (?:building|validation) failed\b|\bunable to find valid certification path\b|\bSSL certificate problem\b|\bcertificate verify failed\b|\bunable to get local issuer certificate\b|\bself[- ]signed certificate in certificate chain\b/i,
    invariant('not_sent'),
  ],
  // "Does not exist or you do not have permission to see it" (Jira, GitHub's 404 for a private repository),
  // Snowflake's "Object 'X' does not exist or not authorized." (002003): the service hides whether the thing exists
  // and answers as for an absent one.
  [
    'not_found_or_hidden',
    /\b(?:does not exist|doesn't exist|not found|was not found)\b[^.]{0,40}?\bor (?:(?:you )?(?:do not|don't|does not|doesn't) have (?:the )?(?:permission|access)|(?:is |are )?not authori[sz]ed)\b/i,
    missingResource(),
  ],
  // The Robots Exclusion Protocol (RFC 9309): a path robots.txt disallows is not to be fetched by a crawler.
  ['robots_disallowed', /\brobots\.txt\b[^]{0,200}?\b(?:not allowed|disallow(?:s|ed)?)\b/i, permission()],
  [
    'permission_denied',
    /\b(?:permission denied|access denied|access is denied|command denied|not authori[sz]ed|unauthori[sz]ed|forbidden|insufficient[_ ](?:privileges?|permissions?|scopes?)|authentication failed|invalid (?:[\w-]+ or )?(?:api[_ -]?key|(?:access |auth |bearer )?token|credentials|x-api-key)|(?:token|credentials?) (?:has |have )?expired|missing (?:required )?scope|authentication required|requires authentication|(?:incorrect|invalid|wrong) (?:username|user name|login|email)(?: or |\/)password|bad credentials|unable to authenticate|(?:api[_ -]?key|token|credentials?|password)(?: provided| supplied| used)? (?:is|was|are|were|has been) (?:invalid|expired|revoked|incorrect)|authentication credentials were not provided|(?:could not|couldn't|cannot|can't|unable to) authenticate|authentication (?:error|failure)|(?:jwt|access token|session|signature) (?:has )?expired|insufficient authentication scopes|(?:has|have) not (?:been )?granted|(?:does not|doesn't|do not|don't) have (?:the )?(?:required |necessary |sufficient )?(?:permissions?|authori[sz]ation)|(?:permission|access) to .{1,200}? denied|(?:must|need to) be logged in|not (?:currently )?logged in|(?:no|have an) active account\b|run:?\s*(?:\$\s*|['"`])[a-z][\w-]*(?: auth)? login|authori[sz]ation violation|(?:does not contain|without) a valid (?:[\w-]+ )?(?:token|api[_ -]?key|credentials))\b/i,
    permission(),
  ],
  // Missing or unaccepted credentials in the platforms' words: Microsoft Graph's unauthenticated ("The caller is not
  // authenticated."), Jira's 401 ("Client must be authenticated to access this resource."), HubSpot's 401
  // ("Authentication credentials not found."), HubSpot's MISSING_SCOPES ("This app hasn't been granted all required
  // scopes"), Telegram's "not enough rights to send text messages to the chat". Ahead of "not found" and "must be".
  [
    'not_authenticated',
    /\b(?:(?:(?:is|are|was|were) not|isn't|aren't|wasn't|weren't) authenticated|must be authenticated|(?:authentication )?credentials (?:were |are )?not (?:found|provided|supplied)|(?:has|have)n't (?:been )?granted|not enough (?:rights|privileges|permissions))\b/i,
    permission(),
  ],
  // A token whose grant does not reach the resource, in GitHub's documented words (REST troubleshooting: "Resource not
  // accessible by integration" for a GitHub App or Actions' GITHUB_TOKEN, "…by personal access token" for a
  // fine-grained token; SAML SSO: "Resource protected by organization SAML enforcement"), and the IAM wording gcloud and
  // Google's APIs print ("Permission 'resourcemanager.projects.setIamPolicy' denied on resource …").
  [
    'grant_does_not_reach',
    /\bresource not accessible by (?:integration|personal access token)\b|\bprotected by (?:your )?organization SAML enforcement\b|\bpermission '[^'\n]{1,200}' denied\b/i,
    permission(),
  ],
  // A sender identity a person has not verified (Amazon SES's sandbox "Email address is not verified", SendGrid's
  // "does not match a verified Sender Identity"): nothing is sent until someone verifies it.
  [
    'unverified_identity',
    /\b(?:(?:email )?address|identity|identities|domain|sender(?: identity)?) (?:is |are |has |have )?not (?:been )?verified\b|\bdoes not match a verified (?:sender|identity|domain|email)/i,
    permission(),
  ],
  // getaddrinfo's EAI_NONAME in words: glibc's gai_strerror "Name or service not known" (Java's UnknownHostException,
  // Python's [Errno -2]), macOS's "nodename nor servname provided, or not known", Go's "lookup …: no such host", .NET's
  // "No such host is known" (WSAHOST_NOT_FOUND). The resolver's authoritative answer that the name does not exist, read
  // as Node's ENOTFOUND is (errno.ts): nothing was sent, and a mistyped or invented host is found by discovery, not by
  // waiting. The temporary EAI_AGAIN ("Temporary failure in name resolution") stays a transient connect failure.
  ['host_unknown', /\b(?:name or service not known|nodename nor servname provided|no such host)\b/i, hostUnknown()],
  [
    'connection_refused',
    /\b(?:connection refused|actively refused|could not connect to server|can't connect to|unable to connect|failed to establish a new connection|failed to connect to all addresses|no connection established|no route to host|name resolution fail\w*|temporary failure in name resolution|too many clients already|too many connections|could not connect to (?:the )?endpoint|cannot connect to|connect call failed|could not resolve host(?:name)?|getaddrinfo failed|connection to (?:the )?(?:server )?\S{1,200} was refused)\b/i,
    transient('not_sent'),
  ],
  [
    'rolled_back',
    /\b(?:deadlock (?:detected|found)|chosen as the deadlock victim|could not serialize access|serialization failure|try restarting transaction|write ?conflict|TransientTransactionError|transaction (?:was )?(?:aborted|rolled back) due to (?:a )?conflict)\b/i,
    transient('rolled_back'),
  ],
  [
    'connection_lost',
    // undici's SocketError "other side closed": the server closed the socket, mid-request or mid-body.
    /\b(?:socket hang up|connection reset|broken pipe|server closed the connection unexpectedly|lost connection|connection (?:was )?(?:closed|terminated)|other side closed)\b/i,
    transient('indeterminate'),
  ],
  // HTTP/2 REFUSED_STREAM (RFC 9113 §8.7): the request may have been written, but the server guarantees it did not
  // process any of it, so it is a refusal (rejected), which a producer's "request sent" does not turn into an unknown.
  ['stream_refused', /REFUSED_STREAM\b/i, transient('rejected')],
  // Any other stream reset (Node's ERR_HTTP2_STREAM_ERROR "Stream closed with error code NGHTTP2_INTERNAL_ERROR",
  // CANCEL…): RFC 9113 §8.7 guarantees nothing for it, so the server may have processed the request.
  ['stream_reset', /\bstream closed with error code NGHTTP2_\w+/i, transient('indeterminate')],
  [
    // Timeouts of the connect phase (TCP connect, TLS handshake): the request was never written.
    'connect_timed_out',
    /\b(?:tls|ssl) handshake (?:timeout|timed out)\b|\bconnect (?:timed out|timeout)\b/i,
    transient('not_sent'),
  ],
  // Compute Engine's stockout (ZONE_RESOURCE_POOL_EXHAUSTED, troubleshooting-resource-availability): "The zone '…' does not
  // have enough resources available to fulfill the request. Try a different zone, or try again later." Nothing was
  // created; capacity returns. Ahead of "try again later", which alone cannot say whether anything happened.
  ['capacity_exhausted', /\bdoes not have enough resources available to fulfill the request\b/i, transient('rejected')],
  // "Time-out" hyphenated too: nginx's 504 page reads "504 Gateway Time-out".
  ['timed_out', /\b(?:timed? ?out|time-out|timeout|deadline exceeded)\b/i, transient('indeterminate')],
  ['overloaded', /\b(?:overloaded|server is busy|at capacity)\b/i, transient('rejected')],
  ['unavailable', /\b(?:temporarily unavailable|service unavailable|try again later)\b/i, transient('indeterminate')],
  [
    // Optimistic concurrency: the caller's version/ETag/precondition no longer matches (re-read, retry).
    'concurrent_modification',
    /\b(?:has been modified|modified since|etag (?:mismatch|does not match|did not match)|(?:version|revision|generation) (?:conflict|mismatch|does not match|did not match)|precondition (?:failed|not met|does not hold)|conditions? (?:specified|using) [^.]{0,40}(?:not|does not) (?:met|hold)|conditional (?:request|check) failed|stale (?:version|object|data|read)|optimistic (?:lock|concurrency)\w*|apply your changes to the latest version|concurrent (?:modification|update)|changed since (?:it was )?(?:last )?read|record has changed|non-fast-forward|\(fetch first\)|updates were rejected because the (?:remote contains work|tip of your current branch is behind))/i,
    concurrencyConflict(),
  ],
  // Another operation holds the resource for now, in the tools' documented words: Azure Resource Manager's
  // AnotherOperationInProgress ("Another operation on this or dependent resource is in progress"), Helm's "another
  // operation (install/upgrade/rollback) is in progress", Pulumi Cloud's 409 "Another update is currently in progress"
  // (update-conflicts: one lease per stack). Nothing of this request ran; it can once that operation ends.
  [
    'operation_in_progress',
    /\banother (?:operation|update)\b[^.\n]{0,80}?\bis (?:currently |still )?in progress\b/i,
    transient('rejected'),
  ],
  // A merge the target's state refuses: GitHub's 405 "Pull Request is not mergeable", GitLab's 406 "Branch cannot be
  // merged" (conflicts or unmet merge checks). The branches must change first, not the request.
  [
    'not_mergeable',
    /\b(?:pull request|merge request|branch)(?:es)? (?:is not|isn't|cannot be|can't be) merge(?:able|d)\b/i,
    invariant(),
  ],
  [
    'already_exists',
    /\b(?:already exists|is a duplicate(?![\w-])|the file exists(?=\.)|duplicate key|duplicate entry|unique constraint|unique violation|already (?:been )?(?:in use|taken)|cannot re-?use a name)\b/i,
    invariant('rejected', { duplicateOnRetry: true }),
  ],
  // Windows' FormatMessage text for ERROR_DIR_NOT_EMPTY (145), what ENOTEMPTY is on POSIX: the directory must be
  // emptied first.
  ['directory_not_empty', /\bthe directory is not empty\b/i, invariant()],
  // A state transition to the state the object already has (PagerDuty's "Incident Already Resolved", a pull request
  // already merged): an earlier attempt, or someone else, did it; like Stripe's charge_already_captured.
  [
    'already_done',
    /\balready (?:been )?(?:resolved|closed|merged|captured|refunded|cancell?ed)\b/i,
    invariant('rejected', { duplicateOnRetry: true }),
  ],
  [
    'not_found',
    /\b(?:not found|does not exist|doesn't exist|no such (?:file|table|column|key|bucket|object|user|resource|host|container|image|volume|network|page|record|entity|item|document|directory|process|index)|unknown (?:table|column|database|model|tool|revision)|could not find|couldn't find|cannot find|can't find|unable to find|(?:could|can) ?not be found|can't be found|no matching (?:package|version|distribution|artifact)s?\b[^.\n]{0,120}?\bfound|could not resolve to an? \w+ with|no element found for selector|unconfigured (?:table|columnfamily))\b/i,
    missingResource(),
  ],
  [
    // A lock another session or process holds: the operation did not start (SQLite, DuckDB, Neo4j, file locks).
    'lock_unavailable',
    /\bcould not (?:set|obtain|acquire|get) (?:a |the )?(?:\w+ )?lock\b|\bconflicting lock\b|\block is held\b|\bbeing used by another process\b|\bcan't acquire \w*lock\b|\bunable to acquire (?:a |the )?(?:\w+ )?lock\b/i,
    transient('rejected'),
  ],
  ['conflict', /\bconflict(?:s|ed|ing)?\b/i, invariant()],
  // A model provider's content filter refused the prompt: the input must change (Azure OpenAI's content management
  // policy, OpenAI's and Google's safety systems).
  [
    'content_filtered',
    /\bcontent (?:management |filtering )?polic(?:y|ies)\b|\bcontent filter(?:ing|ed)?\b|\bflagged by (?:our|the) (?:safety|moderation) system\b|\bblocked (?:due to|by) safety\b/i,
    validation(),
  ],
  // A payment the issuer refused ("Your card was declined."): the payment details must change, often by the user.
  ['payment_declined', /\b(?:card|payment|transaction) (?:was |has been )?declined\b/i, validation()],
  // A required argument left out, in the words of APIs that name it: Asana's "workspace: Missing input".
  ['missing_argument', /\bmissing (?:input|parameters?|arguments?)\b/i, validation()],
  [
    'invalid_request',
    // Schema validators' own wording too: JSON Schema ("'owner' is a required property", "is not of type"),
    // pydantic ("1 validation error for …", "Field required", "Input should be …"), zod ("Expected string,
    // received number"), and the MCP SDKs' "Input validation error". graphql-js's validation rules' fixed templates
    // (GraphQL spec §5): 'Cannot query field "x" on type "Y".', 'Unknown argument "x" on field "Q.y".',
    // 'Unknown type "X".', 'Variable "$id" of required type "ID!" was not provided.'
    /\b(?:invalid|malformed|missing required|is required|must be|syntax error|parse error|too long|too large|exceeds the maximum|maximum context length|unexpected token|validation errors?|validation failed|failed validation|strict mode violation|is a required property|not a (?:valid|recognized)|(?:can't|cannot|can not) be (?:blank|empty|null|set|negative|zero)|cannot accept|is too short|is not included in the list|additional properties are not allowed|is not of type|field required|input should be|expected \w+, received \w+|cannot query field|unknown (?:argument|type|directive|fragment) "|of required type "[^"\n]{1,200}" was not provided)\b/i,
    validation(),
  ],
];

// The tool ran, then its answer broke the output schema it declares (the MCP SDKs' "Output validation error"):
// the server's contract is broken, and whatever the tool did may have happened. LangChain's OutputParserException
// ("Could not parse LLM output: …") is the same break: the model answered, not in the form the chain declares. The validator's issue codes
// quoted after it ("invalid_type") describe the answer, not the request, so this phrase outranks every code.
const OUTPUT_CONTRACT_BROKEN =
  /\boutput validation error\b|\binvalid structured content\b|\bhas an output schema but\b|\bcould not parse (?:the )?(?:llm|model) output\b/i;
const OUTPUT_INVALID = invariant('indeterminate');

/** The meaning of a text that reports the tool's own answer failing its declared output schema, else null. */
export function outputContractBroken(text: string | null): ErrorMeaning | null {
  return text !== null && OUTPUT_CONTRACT_BROKEN.test(text)
    ? meaningOf(OUTPUT_INVALID, 'message:output_invalid')
    : null;
}

/** The first phrase pattern the text contains, as a meaning with reason "message:<pattern>". */
export function messageMeaning(text: string | null): ErrorMeaning | null {
  return text ? meaningOfRepeated(text) : null;
}

// Remembered per text, like messageCodes: the phrase table is the longest read of a failed outcome.
const meaningOfRepeated = memoiseByText((text: string): ErrorMeaning | null => meaningInProse(proseOf(text)));

function meaningInProse(prose: string): ErrorMeaning | null {
  for (const [id, pattern, semantics] of PATTERNS) {
    if (pattern.test(prose)) return meaningOf(semantics, `message:${id}`);
  }
  return null;
}

// A URL names a place, not what went wrong: the words in it ("…/forbidden-words", "app.example.invalid") are not
// the error's, so phrases are read in the text with its URLs (RFC 3986: a scheme, then "://") blanked out.
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>()[\]{}`]+/gi;
const proseOf = (text: string): string => (text.includes('://') ? text.replace(URL_IN_TEXT, ' ') : text);

// The patterns whose phrase proves the request never left (connection refused and kin).
const NOT_SENT = PATTERNS.filter(([, , semantics]) => semantics.effect === 'not_sent').map(([, pattern]) => pattern);

/**
 * messageMeaning(text) when it proves the request was never sent, else null. Most texts hold no
 * such phrase, and one look for those patterns spares reading the whole table for them.
 */
export function notSentPhrase(text: string | null): ErrorMeaning | null {
  if (!text) return null;
  const prose = proseOf(text);
  if (!NOT_SENT.some((pattern) => pattern.test(prose))) return null;
  const meaning = meaningInProse(prose);
  return meaning?.effect === 'not_sent' ? meaning : null;
}
