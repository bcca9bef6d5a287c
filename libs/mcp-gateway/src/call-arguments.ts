/**
 * The value of a named top-level argument as the id the contract records: strings as they are, numbers
 * and booleans as their JSON text, anything else (absent, null, objects) = not given.
 */
export function argumentText(args: Readonly<Record<string, unknown>>, name: string | undefined): string | null {
  if (name === undefined || !Object.prototype.hasOwnProperty.call(args, name)) return null;
  const value = args[name];
  if (typeof value === 'string') return value.length > 0 ? value : null;
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return null;
}

/**
 * The resource a call touches: the configured argument's value, else the tool itself (SERVER__TOOL), so
 * without a resourceId the key is one per principal and tool, as the issue states.
 */
export function resourceOf(
  qualifiedName: string,
  args: Readonly<Record<string, unknown>>,
  resourceArgument: string | undefined,
): string {
  return argumentText(args, resourceArgument) ?? qualifiedName;
}
