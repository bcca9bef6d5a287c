import fc from 'fast-check';

type Path = readonly (string | number)[];

/** Every node below the root, as the path of keys that reaches it. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...pathsOf(child, path)];
  });
}

const REMOVE = Symbol('remove');

/** Values that sit just outside the usual rules: empty, negative, fractional, too long, wrong type. */
const nearMiss = fc.oneof(
  fc.constantFrom<unknown>(REMOVE, null, '', -1, 0, 1.5, 700, true, [], {}, 'x'.repeat(300), '2025-03-14T09:26:53'),
  fc.jsonValue({ maxDepth: 1 }),
);

function withChange(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement !== REMOVE) parent[last] = replacement;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return copy;
}

/** One node of `value` removed or replaced: the input for "do both validators agree?" properties. */
export function corruptOneNode(value: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(value);
  if (paths.length === 0) return fc.constant(value);
  return fc
    .tuple(fc.constantFrom(...paths), nearMiss)
    .map(([path, replacement]) => withChange(value, path, replacement));
}
