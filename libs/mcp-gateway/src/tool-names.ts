/** Separates server and tool in the names the agent sees: the MCP guidance for aggregating proxies. */
export const NAME_SEPARATOR = '__';

/** The name the agent sees for `tool` of `server`: SERVER__TOOL. */
export const qualifiedToolName = (server: string, tool: string): string => `${server}${NAME_SEPARATOR}${tool}`;

/**
 * SERVER__TOOL → its server and upstream tool name, or null when the name has no server part. Server names
 * cannot contain "__" (the config refuses them), so the first separator is the boundary even when the
 * upstream tool's own name contains "__".
 */
export function splitToolName(name: string): { readonly server: string; readonly tool: string } | null {
  const at = name.indexOf(NAME_SEPARATOR);
  if (at <= 0 || at + NAME_SEPARATOR.length >= name.length) return null;
  return { server: name.slice(0, at), tool: name.slice(at + NAME_SEPARATOR.length) };
}
