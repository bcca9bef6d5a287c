import { meaningOf, type ErrorMeaning, type Semantics } from './error-meaning.js';
import { ANTHROPIC, OPENAI } from './provider-ai.js';
import { AWS } from './provider-aws.js';
import { AZURE, GCP } from './provider-cloud.js';
import { CLICKHOUSE, ELASTICSEARCH, MYSQL, MYSQL_ERRORS, PEP249, PRISMA } from './provider-db.js';
import { GITHUB, OAUTH, REDIS, SLACK, STRIPE } from './provider-saas.js';
import { MONGODB_NAMES } from './provider-numbers.js';
import { CASSANDRA } from './provider-cassandra.js';
import { DNS, LDAP } from './provider-directory.js';
import { KAFKA } from './provider-kafka.js';
import { SQLITE } from './provider-sqlite.js';
import { BOX, DROPBOX, PAYPAL, SALESFORCE, SQUARE } from './provider-business.js';
import { nameKey, type ProviderGroup } from './provider-table.js';

/** Every provider table, most specific first: a name registered twice keeps its first meaning. */
export const PROVIDER_GROUPS: readonly ProviderGroup[] = [
  AWS,
  GCP,
  AZURE,
  OPENAI,
  ANTHROPIC,
  STRIPE,
  SLACK,
  OAUTH,
  GITHUB,
  REDIS,
  MYSQL,
  PRISMA,
  PEP249,
  MONGODB_NAMES,
  SQLITE,
  SALESFORCE,
  DROPBOX,
  PAYPAL,
  SQUARE,
  BOX,
  KAFKA,
  CASSANDRA,
  LDAP,
  DNS,
  ELASTICSEARCH,
  CLICKHOUSE,
];

const TABLE: ReadonlyMap<string, Semantics> = (() => {
  const table = new Map<string, Semantics>();
  for (const group of PROVIDER_GROUPS) {
    for (const [semantics, names] of group.entries) {
      for (const name of names) if (!table.has(nameKey(name))) table.set(nameKey(name), semantics);
    }
  }
  return table;
})();

/**
 * Wrapper class names that say only "an error happened" (HttpError, AxiosError, boto3's ClientError,
 * MCP's McpError…): they carry no meaning, the codes inside them do.
 */
const CONTENT_FREE = new Set(
  [
    'Error',
    'Exception',
    'HttpError',
    'HTTPError',
    'FetchError',
    'AxiosError',
    'RequestError',
    'ResponseError',
    'ClientError',
    'APIError',
    'ServiceException',
    'StatusCodeError',
    'DatabaseError',
    'QueryFailedError',
    'PostgresError',
    'DriverError',
    'RuntimeError',
    'GaxiosError',
    'RestError',
    'AggregateError',
    'SystemError',
    'DOMException',
    'McpError',
    'ToolError',
    'UnknownError',
    'SdkError',
    'StripeError',
    'OpenAIError',
    'AnthropicError',
    'HttpException',
    'SQLException',
    'PSQLException',
    'DbError',
    'error',
  ].map(nameKey),
);

export const isContentFreeName = (name: string): boolean => CONTENT_FREE.has(nameKey(name));

/** Strips the wrappers providers put around a code: AWS "__type" namespaces, SOAP "Client." prefixes. */
export function bareName(name: string): string {
  const afterHash = name.includes('#') ? name.slice(name.lastIndexOf('#') + 1) : name;
  return afterHash
    .replace(/^(?:Client|Server|Sender|Receiver)\./, '')
    .replace(/:$/, '')
    .trim();
}

/** Exact lookup in the documented provider tables. */
export function providerMeaning(name: string): ErrorMeaning | null {
  const bare = bareName(name);
  const known = TABLE.get(nameKey(bare));
  return known ? meaningOf(known, `provider:${bare}`) : null;
}

// A provider's own codes in snake_case ("channel_not_found", "card_declined", "insufficient_quota") or upper snake
// case as PayPal and Square spell theirs ("INSTRUMENT_DECLINED", "CARD_DECLINED"): the form that is unmistakably a
// code when it appears bare in an error's text, matched in the case the provider documents it. Single words
// ("ratelimited", Adyen's "Refused") are left to the phrase table, which cannot tell a code from prose for them.
const SNAKE_CODE = /^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/;
const SNAKE_TOKEN = /(?<![\w./-])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w/-]|\.\w)/g;

const CODES_BY_PROVIDER: ReadonlyMap<string, ReadonlyMap<string, Semantics>> = (() => {
  const byProvider = new Map<string, Map<string, Semantics>>();
  for (const group of PROVIDER_GROUPS) {
    for (const provider of [group.provider, ...(group.aliases ?? [])]) {
      const codes = byProvider.get(provider) ?? new Map<string, Semantics>();
      byProvider.set(provider, codes);
      for (const [semantics, names] of group.entries)
        for (const name of names) if (SNAKE_CODE.test(name) && !codes.has(name)) codes.set(name, semantics);
    }
  }
  return byProvider;
})();

/**
 * The first of the declared provider's documented snake_case codes that the error text names as a word: the
 * provider's SDK put its code into the message and nowhere else ("An API error occurred: channel_not_found" from
 * @slack/web-api, "card_declined - Your card was declined." from a tool's wrapper, an MCP tool's text). Only the
 * outcome's own provider is consulted: another provider's code in prose is not this reply's code.
 */
export function providerCodeInText(provider: string | null, text: string | null): ErrorMeaning | null {
  if (provider === null || text === null) return null;
  const codes = CODES_BY_PROVIDER.get(provider.toLowerCase());
  if (codes === undefined) return null;
  for (const [token] of text.matchAll(SNAKE_TOKEN)) {
    const known = codes.get(token);
    if (known !== undefined) return meaningOf(known, `provider:${token}`);
  }
  return null;
}

const MYSQL_BY_NUMBER: ReadonlyMap<number, readonly [string, Semantics]> = new Map(
  MYSQL_ERRORS.map(([n, symbol, s]) => [n, [symbol, s]] as const),
);

/** MySQL error numbers (mysql2's err.errno, Go's "Error 1062 (23000)"). */
export function mysqlNumberMeaning(n: number): ErrorMeaning | null {
  const known = MYSQL_BY_NUMBER.get(n);
  return known ? meaningOf(known[1], `mysql:${n}`) : null;
}

export { MYSQL };
