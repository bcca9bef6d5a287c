import { AUTH_SCHEME_RULES } from './families/auth-schemes.js';
import { KEY_ID_RULES, KEY_PAIR_RULES } from './families/key-pairs.js';
import { GENERIC_SECRET_RULE, KEY_VALUE_RULES } from './families/key-value.js';
import { KNOWN_TOKEN_RULES } from './families/known-tokens.js';
import { PEM_RULES } from './families/pem.js';
import { URL_CREDENTIAL_RULES } from './families/url-credentials.js';
import { marker, type SecretRule } from './secret-rule.js';

export { marker, type SecretRule } from './secret-rule.js';

const URL_PARAM_RULES = URL_CREDENTIAL_RULES.filter((rule) => rule.kind === 'url_param');
const URL_USERINFO_RULES = URL_CREDENTIAL_RULES.filter((rule) => rule.kind !== 'url_param');
const [SQL_PASSWORD, ORACLE_PASSWORD, COOKIE, ...NAMED_VALUES] = KEY_VALUE_RULES;

/**
 * The rule families (families/*.ts), ordered: whole structures first (armored blocks, URL userinfo,
 * HTTP credentials, SQL passwords, cookie headers), then self-identifying tokens (JWT, provider
 * prefixes), the key ids and, in their company, the unlabelled secret halves of key pairs, then values by
 * the name of their key (query parameters, JSON members, assignments, flags), then random-looking values
 * under names that merely contain a secret-ish word, then e-mail addresses. docs/security.md lists every
 * rule; each family has its own unit spec and fixtures/secret-shapes.ts the corpus they are held to.
 */
export const SECRET_RULES: readonly SecretRule[] = [
  ...PEM_RULES,
  ...URL_USERINFO_RULES,
  ...AUTH_SCHEME_RULES,
  SQL_PASSWORD!,
  ORACLE_PASSWORD!,
  COOKIE!,
  ...KNOWN_TOKEN_RULES,
  ...KEY_ID_RULES,
  ...KEY_PAIR_RULES,
  ...URL_PARAM_RULES,
  ...NAMED_VALUES,
  GENERIC_SECRET_RULE,
  {
    kind: 'email',
    personal: true,
    triggers: ['@'],
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}\b/g,
    replace: () => marker('email'),
  },
];
