import { LIMITS } from '@tokencircuit/contracts';
import { argumentsFingerprint } from '@tokencircuit/governance';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * The JSON arguments recorded for a call. Tool frameworks pass the model's arguments as one object
 * first (Vercel AI SDK execute(input, options), LangChain func(input, config), OpenAI's parsed
 * arguments), followed by runtime options that are not arguments: so a plain object first argument
 * IS the arguments, anything else is recorded positionally as { args: [...] }.
 */
export function defaultArguments(args: readonly unknown[]): Record<string, unknown> {
  if (args.length === 0) return {};
  if (isPlainObject(args[0])) return args[0];
  return { args: [...args] };
}

/**
 * Makes `value` plain JSON (BigInt as text, cycles marked, functions dropped) and keeps it within the
 * contract's size cap. Oversized arguments become a stand-in that still tells attempts apart: their
 * structural fingerprint, size and a preview, so "same arguments" stays decidable by the backend.
 */
export function recordableArguments(value: Record<string, unknown>): Record<string, unknown> {
  const json = safeJson(value);
  const plain = JSON.parse(json) as unknown;
  const record = isPlainObject(plain) ? plain : { value: plain };
  const bytes = Buffer.byteLength(JSON.stringify(record), 'utf8');
  if (bytes <= LIMITS.argumentsBytes) return record;
  return {
    $truncated: { bytes, fingerprint: argumentsFingerprint(record), preview: json.slice(0, 512) },
  };
}

function safeJson(value: unknown): string {
  const seen = new WeakSet<object>();
  return (
    JSON.stringify(value, (_key, member: unknown) => {
      if (typeof member === 'bigint') return member.toString();
      if (typeof member === 'function' || typeof member === 'symbol') return undefined;
      if (typeof member === 'object' && member !== null) {
        if (seen.has(member)) return '[Circular]';
        seen.add(member);
      }
      return member;
    }) ?? '{}'
  );
}
