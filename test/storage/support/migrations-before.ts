import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@tokencircuit/contracts';
import { acceptedEvent } from '@tokencircuit/projection';
import { MIGRATIONS_FOLDER } from '@tokencircuit/storage';

/** The agent-events topic the migrated rows were accepted from. */
export const TOPIC = 'tokencircuit.agent-events.v1';

/**
 * A copy of the migrations folder as the build before migration `idx` had it (its journal stops before `idx`), in a
 * temporary folder the caller removes: a database migrated from it is what that older build left behind.
 */
export function migrationsBefore(idx: number): string {
  const folder = mkdtempSync(join(tmpdir(), `tc-before-${String(idx).padStart(4, '0')}-`));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const path = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < idx);
  writeFileSync(path, JSON.stringify(journal));
  return folder;
}

/** Events as the projector accepted them from partition 0 of the agent-events topic, from offset `first` on. */
export const positioned = (events: readonly AgentEvent[], first: number) =>
  events.map((event, i) => acceptedEvent(event, { topic: TOPIC, partition: 0, offset: String(first + i) }));
