import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { createNameResolver, type NameResolver } from '../../src/lib/name-resolver.js';

/**
 * A name server on loopback: A records for the names it knows, "no such name" for the rest, or
 * (silent) no answer at all. It records every question it receives.
 */
async function nameServer(records: Record<string, string>, silent = false) {
  const socket = dgram.createSocket('udp4');
  const questions: Array<{ name: string; type: number }> = [];
  socket.on('message', (msg, peer) => {
    let at = 12;
    const labels: string[] = [];
    while (msg[at]! > 0) {
      labels.push(msg.subarray(at + 1, at + 1 + msg[at]!).toString('latin1'));
      at += msg[at]! + 1;
    }
    const name = labels.join('.').toLowerCase();
    const type = msg.readUInt16BE(at + 1);
    questions.push({ name, type });
    if (silent) return;
    const question = msg.subarray(12, at + 5);
    const address = records[name];
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(address === undefined ? 0x8183 : 0x8180, 2); // an answer; NXDOMAIN for an unknown name
    header.writeUInt16BE(1, 4);
    const answers: Buffer[] = [];
    if (address !== undefined && type === 1) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0);
      rr.writeUInt16BE(1, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(300, 6);
      rr.writeUInt16BE(4, 10);
      Buffer.from(address.split('.').map(Number)).copy(rr, 12);
      answers.push(rr);
    }
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${socket.address().port}`, questions, close: () => socket.close() };
}

describe('name resolution of a user-named host (src/lib/name-resolver.ts)', () => {
  const opened: Array<{ close(): void }> = [];
  after(() => {
    for (const o of opened) o.close();
  });
  function resolver(server: string, options: Partial<Parameters<typeof createNameResolver>[0]> = {}): NameResolver {
    const r = createNameResolver({ timeoutMs: 500, tries: 1, concurrency: 4, cacheSize: 10, cacheTtlMs: 60_000, servers: [server], ...options });
    opened.push(r);
    return r;
  }

  test('answers A records by DNS, says ENOTFOUND for an unknown name, and keeps answers a while', async () => {
    const dns = await nameServer({ 'cdn.test': '93.184.216.34' });
    opened.push(dns);
    const r = resolver(dns.server);
    assert.deepEqual(await r.lookup('cdn.test'), [{ address: '93.184.216.34', family: 4 }]);
    await assert.rejects(r.lookup('gone.test'), { code: 'ENOTFOUND' });
    const asked = dns.questions.length;
    assert.deepEqual(await r.lookup('CDN.test.'), [{ address: '93.184.216.34', family: 4 }]);
    await assert.rejects(r.lookup('gone.test'), { code: 'ENOTFOUND' });
    assert.equal(dns.questions.length, asked, 'both answers came from the cache');
    // Literals and localhost need no question.
    assert.deepEqual(await r.lookup('[::1]'), [{ address: '::1', family: 6 }]);
    assert.deepEqual((await r.lookup('localhost')).map((a) => a.address).sort(), ['127.0.0.1', '::1']);
    assert.equal(dns.questions.length, asked);
  });

  test('a server that never answers: the lookup fails on its own timeout, and file operations go on meanwhile', async () => {
    const dns = await nameServer({}, true);
    opened.push(dns);
    const r = resolver(dns.server, { timeoutMs: 300, tries: 1 });
    const pending = Array.from({ length: 12 }, (_, i) => r.lookup(`n${i}.silent.test`));
    // Were these lookups on libuv's four threads (dns.lookup), a file read would wait for them.
    assert.ok((await readFile(new URL(import.meta.url))).length > 0);
    const results = await Promise.allSettled(pending);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      assert.equal((result as PromiseRejectedResult).reason.code, 'ETIMEOUT');
    }
  });

  test('at most `concurrency` names are asked at once; the rest wait their turn', async () => {
    const dns = await nameServer({}, true);
    opened.push(dns);
    const r = resolver(dns.server, { timeoutMs: 60_000, tries: 1, concurrency: 2 });
    const pending = Array.from({ length: 6 }, (_, i) => r.lookup(`q${i}.silent.test`).catch((err: NodeJS.ErrnoException) => err.code));
    while (new Set(dns.questions.map((q) => q.name)).size < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    // Some more turns of the event loop: no third name is asked while the first two hang.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([...new Set(dns.questions.map((q) => q.name))].sort(), ['q0.silent.test', 'q1.silent.test']);
    r.close();
    assert.deepEqual(await Promise.all(pending), ['ECANCELLED', 'ECANCELLED', 'ECANCELLED', 'ECANCELLED', 'ECANCELLED', 'ECANCELLED']);
  });
});
