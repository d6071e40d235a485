/**
 * The fake Threads Graph API in a process of its own, for the publisher row: its CPU is then
 * its own (read from /proc/PID/stat), not the bench's or the workers'. Started by
 * bench/publisher.ts with fork(); the options come as JSON in argv[2]. Messages: the parent
 * asks `{ id, op: 'account', name }` (an account of the fake) or `{ id, op: 'advance', ms }`
 * (its clock moved on, so each run starts with fresh 24 h quotas); each is answered
 * `{ id, result }`. The first message sent is `{ url }`.
 */
import { FakeGraphApi } from '../test/helpers/fakes/threads-graph-api.js';

interface Request {
  id: number;
  op: 'account' | 'advance';
  name?: string;
  ms?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as { latencyMs: number; postQuota: number };
let offsetMs = 0;
const fake = await FakeGraphApi.start({ ...options, clock: { now: () => new Date(Date.now() + offsetMs) } });
const send = (message: unknown) => process.send?.(message);
process.on('message', (message: Request) => {
  if (message.op === 'account') send({ id: message.id, result: fake.createAccount(message.name) });
  else {
    offsetMs += message.ms ?? 0;
    // A new run: the requests the fake recorded (for the tests' assertions) are not read here,
    // and 30,000 a run kept for the whole bench only make its collections slower run after run.
    fake.requests.length = 0;
    send({ id: message.id, result: null });
  }
});
process.on('disconnect', () => {
  void fake.close().then(() => process.exit(0));
});
send({ url: fake.url });
