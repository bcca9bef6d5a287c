import { readFileSync } from 'node:fs';
import { Ajv2019, type ErrorObject, type ValidateFunction } from 'ajv/dist/2019.js';

// Compose Specification schema, vendored verbatim: see fixtures/README.md for where it comes from.
const SCHEMA_FILE = new URL('./fixtures/compose-spec.schema.json', import.meta.url);

// The spec's own formats; Go-style durations ("5s", "1m30s") are not JSON Schema's ISO 8601 ones.
const FORMATS = {
  duration: /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/,
  // [host_ip:][host_port[-range]]:container_port[-range][/protocol], or just container_port.
  ports:
    /^(?:(?:(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):)?(?:\d+(?:-\d+)?)?:)?\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/,
  expose: /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/,
  subnet_ip_address: /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]+)\/\d{1,3}$/,
} as const;

/**
 * The vendored schema predates `$id`: it marks subschemas with draft-04 `id` strings, which draft
 * 2019-09 validators reject as unknown, and names the draft by an http URI Ajv does not register.
 * Both are identification only, never constraints, so they are dropped; everything else is kept.
 */
function withoutLegacyIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLegacyIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutLegacyIds(value)]),
  );
}

/** A validator for the Compose Specification; strict, except that the spec uses union types. */
export function composeValidator(): ValidateFunction {
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
  return ajv.compile(withoutLegacyIds(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))) as object);
}

/** One line per error, "path: message", for assertion messages people can act on. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => `${error.instancePath || '(root)'}: ${error.message ?? error.keyword}`);
}

/**
 * Compose interpolation as `docker compose config` does it before validating: ${VAR}, ${VAR:-default},
 * ${VAR-default}, $VAR and the $$ escape, over every string in the file. Unset variables without a
 * default become "" (Compose warns and does the same).
 */
export function interpolate<T>(node: T, env: Readonly<Record<string, string | undefined>>): T {
  if (typeof node === 'string') {
    return node.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (
        whole,
        braced: string | undefined,
        colon: string | undefined,
        fallback: string | undefined,
        bare: string | undefined,
      ) => {
        if (whole === '$$') return '$';
        const name = (braced ?? bare)!;
        const value = env[name];
        if (fallback === undefined) return value ?? '';
        const useFallback = colon === ':' ? !value : value === undefined;
        return useFallback ? fallback : value!;
      },
    ) as T;
  }
  if (Array.isArray(node)) return node.map((item) => interpolate(item, env)) as T;
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolate(value, env)])) as T;
  }
  return node;
}
