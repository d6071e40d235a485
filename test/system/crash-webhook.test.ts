/**
 * Crash test for webhook deliveries: a real `skein worker` process on PostgreSQL is killed
 * (SIGKILL) while its webhook request is in flight (the receiver holds the answer back), and a
 * fresh worker sends the event again once the dead one's lease has run out: at least once, the
 * same event id, nothing lost.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { postgresSkipReason } from '../helpers/db.js';
import { createUser } from '../helpers/seeds.js';
import { dumpWorkerLogs, openSystemEnv, type SystemEnv, shutDown, startWorker, type WorkerProcess, waitFor } from '../helpers/system.js';

const skip = postgresSkipReason();
const ROUNDS = 3;
const LEASE_MS = 3000;

let env: SystemEnv;
let server: Server;
const workers: WorkerProcess[] = [];
/** Event id → how many times it arrived. */
const arrivals = new Map<string, number>();
/** Requests whose answer is held back: the worker is killed while it waits. */
const held: Array<{ eventId: string; res: ServerResponse }> = [];
/**
 * Runs when an event's first request arrives (and is held): the test kills the worker right
 * there, so the kill lands while the request is in flight however slow the machine (the worker's
 * own 10 s webhook timeout has no time to run out).
 */
let onHeld: (eventId: string) => void = () => {};

before(async () => {
  if (skip) return;
  env = await openSystemEnv({ config: (c) => ({ ...c, media: { allowPrivate: true } }) });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const eventId = JSON.parse(Buffer.concat(chunks).toString('utf8')).id as string;
      const n = (arrivals.get(eventId) ?? 0) + 1;
      arrivals.set(eventId, n);
      if (n === 1) {
        held.push({ eventId, res });
        onHeld(eventId);
      } else res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});

after(async () => {
  if (skip) return;
  server.closeAllConnections();
  await shutDown({ workers, env, servers: [{ close: () => new Promise<void>((r) => server.close(() => r())) }] });
});

// Every step waits for its condition (the request held at the receiver, the row DELIVERED); the
// bounds only stop a hung run.
test(`a worker killed (SIGKILL) mid-delivery, ${ROUNDS} times: each event is delivered after the lease runs out, with the same id`, {
  skip: skip ?? false,
  timeout: 300_000,
}, async () => {
  const user = await createUser(env.ctx);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const res = await user.call(env.app, { method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['ping'] } });
  assert.equal(res.statusCode, 201, res.body);
  const webhookId = res.json().id as string;
  const spawn = () => {
    const w = startWorker({
      dbUrl: env.dbUrl,
      threadsApiUrl: 'http://127.0.0.1:9',
      leaseMs: LEASE_MS,
      name: `worker-${workers.length + 1}`,
      env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' },
    });
    workers.push(w);
    return w;
  };
  let current = spawn();
  const eventIds: string[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      await current.ready;
      const victim = current;
      const killedAt: string[] = [];
      onHeld = (id) => {
        killedAt.push(id);
        victim.child.kill('SIGKILL');
      };
      const ping = await user.call(env.app, { method: 'POST', url: `/api/v1/webhooks/${webhookId}/test` });
      assert.equal(ping.statusCode, 202, ping.body);
      const { eventId } = ping.json();
      eventIds.push(eventId);
      await waitFor(`${eventId} in flight`, async () => killedAt.length > 0, 60_000);
      assert.deepEqual(killedAt, [eventId], "the worker was killed while delivering this round's event");
      await victim.exited;
      current = spawn();
      await waitFor(
        `${eventId} delivered`,
        async () => {
          const row = await env.ctx.db.selectFrom('webhook_deliveries').select('status').where('event_id', '=', eventId).executeTakeFirst();
          return row?.status === 'DELIVERED';
        },
        60_000,
      );
    }
    const attempts = await env.ctx.db.selectFrom('webhook_attempts').selectAll().where('webhook_id', '=', webhookId).orderBy('at').execute();
    assert.deepEqual(
      attempts.map((a) => [a.event_id, a.attempt, a.status, a.response_status]),
      eventIds.map((id) => [id, 2, 'DELIVERED', 200]),
      'the killed attempt left no row; the second is recorded',
    );
    for (const id of eventIds) assert.equal(arrivals.get(id), 2, `${id}: sent by the dead worker, then again by the next`);
    const lost = eventIds.filter((id) => !arrivals.has(id)).length;
    console.log(`# webhooks crash: events=${eventIds.length} attempts=${[...arrivals.values()].reduce((a, b) => a + b, 0)} kills=${ROUNDS} lost=${lost}`);
  } catch (err) {
    console.log(`# worker logs: ${dumpWorkerLogs(workers, 'crash-webhook')}`);
    throw err;
  }
});
