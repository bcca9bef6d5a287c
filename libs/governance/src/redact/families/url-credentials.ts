import { HIGH_ENTROPY_BITS, looksLikeRandomKey, shannonEntropy } from '../entropy.js';
import { marker, type SecretRule } from '../secret-rule.js';
import { SECRET_NAME_TRIGGERS, secretNameKind } from './secret-names.js';

/**
 * Credentials a URL carries (RFC 3986): the password of the userinfo (`scheme://user:password@host`, user
 * and host kept, they identify without authenticating), a token used as the user, and query or fragment
 * parameters that are credentials by name (the same token families as arguments, see secret-names.ts) or
 * by OAuth semantics (RFC 6749 §4.1.2 `code`, RFC 7636 `code_verifier`, RFC 8628 `device_code`, RFC 7521
 * `assertion` / `client_assertion`). `state` (RFC 6749 §10.12) is a CSRF binding the client chose, not a
 * credential, and stays.
 */

/** The authority's start: the lookbehind pins it to the beginning of a run, keeping the scan linear. */
const SCHEME = String.raw`(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)`;

/**
 * A password with reserved characters written raw ("pa/ss@word", "p?w#d"): no parser agrees on where it
 * ends, so it runs to the last "@" of the URL when what follows that "@" is a host and the text before the
 * first "/" is not a port ("https://host:8080/users/bob@example.com" is a path).
 */
const HOST_AFTER = /^[A-Za-z0-9._~%-]+(?::\d+)?(?:[/?#]|$)/;

/** Parameters whose value is a credential by the protocol's definition, whatever their name's words. */
const OAUTH_PARAMS = new Set(['code', 'code_verifier', 'device_code', 'assertion', 'client_assertion']);

const isMarker = (value: string): boolean => /^\[REDACTED:[a-z0-9_]+\]$/.test(value);

export const URL_CREDENTIAL_RULES: readonly SecretRule[] = [
  {
    kind: 'password',
    triggers: ['://'],
    pattern: new RegExp(String.raw`${SCHEME}([^\s:/?#@'"]*):([^\s/?#'"]+)@`, 'gi'),
    replace: (_m, scheme: string, user: string) => `${scheme}${user}:${marker('password')}@`,
  },
  {
    kind: 'password',
    triggers: ['://'],
    pattern: new RegExp(
      String.raw`${SCHEME}([^\s:/?#@'"]*):(?!\[REDACTED:password\]@)([^\s'"<>]*[/?#][^\s'"<>]*)@([^\s'"<>@]*)`,
      'gi',
    ),
    replace: (m, scheme: string, user: string, password: string, rest: string) => {
      const beforeSlash = password.split(/[/?#]/)[0]!;
      if (/^\d*$/.test(beforeSlash) || !HOST_AFTER.test(rest)) return m;
      return `${scheme}${user}:${marker('password')}@${rest}`;
    },
  },
  {
    // scheme://<token>@host: a user part with no password that looks random is a token used as user
    // (GitHub, GitLab and many HTTP APIs accept one there); a plain user name stays.
    kind: 'url_token',
    triggers: ['://'],
    pattern: new RegExp(String.raw`${SCHEME}([A-Za-z0-9._~%!$&'()*+,;=-]{16,})@`, 'gi'),
    replace: (m, scheme: string, user: string) =>
      shannonEntropy(user) >= HIGH_ENTROPY_BITS ? `${scheme}${marker('credentials')}@` : m,
  },
  {
    // ?name=value, &name=value, #name=value (implicit-grant fragments), ;jsessionid=value (path
    // parameters); `code=…&…` opening a form body as well.
    kind: 'url_param',
    // The name holds a credential word (secret-names.ts) or is one of the OAuth names.
    triggers: [...SECRET_NAME_TRIGGERS, 'code', 'assertion'],
    pattern: /(^|[?&#;]|\s)([A-Za-z0-9_.~%[\]-]{1,80})=([^&#\s'"<>]*)(?=(&)?)/gi,
    replace: (m, lead: string, name: string, value: string, amp: string | undefined) => {
      if (value.length === 0 || isMarker(value)) return m;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a name that does not decode is read as written
      }
      const lower = decoded.toLowerCase();
      // A bare "code=…" in prose ("exit code=1") is not OAuth: only in a query, a fragment or a form body.
      const oauth = OAUTH_PARAMS.has(lower) && (/[?&#;]/.test(lead) || amp !== undefined);
      // Google's "?key=AIza…" and other unqualified keys: only a random-looking value.
      const bareKey = (lower === 'key' || lower === 'apikey') && /[?&#;]/.test(lead) && looksLikeRandomKey(value, 3);
      const kind = secretNameKind(decoded, { pwd: true });
      if (kind === null && !oauth && !bareKey) return m;
      // Prose key=value outside a URL is the key/value family's (it handles quotes and separators).
      if (kind !== null && !/[?&#;]/.test(lead)) return m;
      return `${lead}${name}=${marker(kind ?? 'secret')}`;
    },
  },
];
