import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import kafkajs, { type Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@tokencircuit/contracts';
import {
  createTestDatabase,
  createTopic,
  randomGroupId,
  randomTopic,
  testKafka,
  type TestDatabase,
} from '@tokencircuit/testing';
import { projectorEnv, type ProjectorTarget } from './support/projector-harness.js';

const { AssignerProtocol } = kafkajs;
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A consumer kafkajs will not restart must not leave a live process that consumes nothing: the real projector
 * process exits 70 with one fatal line, so its supervisor restarts it. The trigger is a broker-side refusal
 * kafkajs treats as non-retriable: joining a group whose members speak another assignment protocol
 * (INCONSISTENT_GROUP_PROTOCOL), as a misconfigured second deployment sharing the group id would.
 */
describe('the projector process after a kafkajs-fatal error (real Kafka and Postgres)', () => {
  let db: TestDatabase;
  let foreign: Consumer | null = null;
  beforeAll(async () => {
    db = await createTestDatabase('projector_fatal');
  });
  afterAll(async () => {
    await foreign?.disconnect().catch(() => undefined);
    await db?.drop();
  });

  it('exits 70 with a fatal log line naming the error', async () => {
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('fatal'), TOPICS.agentEvents.partitions),
      dlqTopic: await createTopic(randomTopic('fatal-dlq'), 1),
      groupId: randomGroupId('fatal'),
    };
    // A member of the projector's group that only speaks an assignment protocol kafkajs' default does not.
    foreign = testKafka().consumer({
      groupId: target.groupId,
      partitionAssigners: [
        () => ({
          name: 'ForeignAssigner',
          version: 1,
          async assign({ members }) {
            return members.map((member, i) => ({
              memberId: member.memberId,
              memberAssignment: AssignerProtocol.MemberAssignment.encode({
                version: 1,
                assignment: i === 0 ? { [target.topic]: [0, 1, 2, 3, 4, 5] } : {},
                userData: Buffer.alloc(0),
              }),
            }));
          },
          protocol({ topics }) {
            return {
              name: 'ForeignAssigner',
              metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) }),
            };
          },
        }),
      ],
    });
    const joined = new Promise<void>((done) => foreign!.on(foreign!.events.GROUP_JOIN, () => done()));
    await foreign.connect();
    await foreign.subscribe({ topics: [target.topic], fromBeginning: true });
    await foreign.run({ eachBatch: async () => undefined });
    await joined;

    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/projector/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...projectorEnv(target), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done, fail) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new Error(`the projector did not exit within 120 s; its output:\n${output}`));
      }, 120_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        done(exitCode);
      });
    });
    expect(code, output).toBe(70);
    const fatal = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string } })
      .filter((entry) => entry.level === 60);
    expect(fatal.map((entry) => entry.msg)).toContain(
      'projector stopped for good: exiting so the supervisor restarts it',
    );
    expect(JSON.stringify(fatal)).toMatch(/protocol/i);
  }, 180_000);
});
