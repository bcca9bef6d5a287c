/** A schema name safe to splice into SQL (replay_<utc stamp>_<random>, or the live schema; checked anyway). */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new TypeError(`not a plain schema name: ${schema}`);
  return `"${schema}"`;
}
