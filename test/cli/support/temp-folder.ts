import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A folder of files for the CLI to read, made before the describe block's tests and removed after them (call it
 * inside the describe). `file` writes one (a string as it is, anything else as JSON) and gives its path.
 */
export function tempFolder(prefix: string): { file: (name: string, content: unknown) => string } {
  let folder = '';
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return {
    file: (name, content) => {
      const path = join(folder, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    },
  };
}
