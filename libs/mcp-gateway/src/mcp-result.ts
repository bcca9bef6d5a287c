/** The parts of an MCP CallToolResult the gateway reads and writes (structural: no SDK in the pure core). */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string; readonly [key: string]: unknown }>;
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** Longest error text taken from a result: the contract caps error text, the classifier needs the start. */
const MAX_ERROR_TEXT = 2_000;

/**
 * What an `isError: true` result says, as the error text the backend classifies (with protocol "mcp" and the
 * configured provider): its text blocks joined, else its structured content as JSON, else a fixed sentence.
 */
export function errorTextOf(result: ToolResult): string {
  const texts = (Array.isArray(result.content) ? result.content : [])
    .filter((block) => block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string);
  const text =
    texts.length > 0
      ? texts.join('\n')
      : result.structuredContent !== undefined
        ? JSON.stringify(result.structuredContent)
        : 'the tool reported an error without text';
  return text.length <= MAX_ERROR_TEXT ? text : `${text.slice(0, MAX_ERROR_TEXT - 1)}…`;
}

/** A result the gateway writes itself: one text block, an error or not, optional structured content. */
export function textResult(
  text: string,
  isError: boolean,
  structuredContent?: Readonly<Record<string, unknown>>,
): ToolResult {
  return {
    content: [{ type: 'text', text }],
    isError,
    ...(structuredContent === undefined ? {} : { structuredContent }),
  };
}
