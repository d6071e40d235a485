import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestEnv, type TestEnv } from '../helpers/context.js';
import { DIALECTS, postgresSkipReason } from '../helpers/db.js';
import { jpegBytes, mp4Bytes } from '../helpers/media-files.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import { until } from '../helpers/wait.js';

interface Sent {
  status: number | null;
  body: string;
  /** Bytes the client managed to write before the server answered and closed. */
  written: number;
}

/**
 * Sends `head`, then zeros, until `total` bytes or until the server answers or closes the
 * connection: an upload of any size, never held in memory here.
 */
function sendUpload(
  port: number,
  key: string,
  options: { head: Buffer; total: number; contentType: string; declareLength: boolean; cutAfter?: number },
): Promise<Sent> {
  return new Promise((resolve) => {
    let written = 0;
    let status: number | null = null;
    let body = '';
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      resolve({ status, body, written });
    };
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/media',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': options.contentType,
        ...(options.declareLength ? { 'content-length': String(options.total) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', () => setTimeout(done, 50));
    req.on('close', () => setTimeout(done, 50));
    const zeros = Buffer.alloc(256 * 1024);
    const pump = () => {
      while (!finished && status === null && !req.destroyed) {
        if (options.cutAfter !== undefined && written >= options.cutAfter) {
          req.destroy();
          return;
        }
        if (written >= options.total) {
          req.end();
          return;
        }
        const chunk = written === 0 ? options.head : zeros.subarray(0, Math.min(zeros.length, options.total - written));
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

/**
 * A client that does not stop at the answer: raw HTTP on a half-open socket (Node's client ends
 * its side as soon as the server ends its own) streaming a chunked image. Once the answer has
 * come it sends `after` bytes more, then ends its side. Resolves when the connection is closed,
 * with the answer's status line and how much of `after` had left the client by then.
 */
function sendPastTheAnswer(port: number, key: string, head: Buffer, after: number): Promise<{ statusLine: string; sentAfter: number }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    let answer = '';
    let queuedAfter = 0;
    let sentAfter = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ statusLine: answer.split('\r\n')[0] ?? '', sentAfter }));
    const chunk = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
    socket.write(
      `POST /api/v1/media HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    socket.write(chunk(head));
    const zeros = chunk(Buffer.alloc(256 * 1024));
    const pump = () => {
      while (!socket.destroyed && socket.writable) {
        const answered = answer.length > 0;
        if (answered && queuedAfter >= after) return void socket.end();
        let ok: boolean;
        if (answered) {
          queuedAfter += zeros.length;
          ok = socket.write(zeros, (err) => {
            if (!err) sentAfter += zeros.length;
          });
        } else ok = socket.write(zeros);
        if (!ok) return void socket.once('drain', pump);
      }
    };
    socket.once('data', pump);
    pump();
  });
}

for (const kind of DIALECTS) {
  describe(`media uploads over real HTTP: limits stop the upload, a cut-off leaves nothing [${kind}]`, {
    skip: (kind === 'postgres' && postgresSkipReason()) || false,
  }, () => {
    let env: TestEnv & { close(): Promise<void> };
    let port: number;
    let user: TestUser;
    before(async () => {
      env = await createTestEnv(kind);
      await env.app.listen({ port: 0, host: '127.0.0.1' });
      port = (env.app.server.address() as AddressInfo).port;
      user = await createUser(env.ctx);
    });
    after(async () => {
      await env.close();
    });
    const files = () => {
      try {
        return readdirSync(env.ctx.config.mediaStorage.dir);
      } catch {
        return [];
      }
    };
    const rows = async () =>
      Number(
        (
          await env.ctx.db
            .selectFrom('media_files')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('a 2 GB upload (declared) is answered 413 and closed before the client sent it', async () => {
      const sent = await sendUpload(port, user.key, { head: mp4Bytes().subarray(0, 64), total: 2_000_000_000, contentType: 'video/mp4', declareLength: true });
      assert.equal(sent.status, 413, sent.body);
      assert.equal(JSON.parse(sent.body).code, 'PAYLOAD_TOO_LARGE');
      assert.ok(sent.written < 100 * 1024 * 1024, `the client wrote ${sent.written} bytes`);
      assert.deepEqual(files(), []);
      assert.equal(await rows(), 0);
    });

    test('an image streamed without a length is stopped at 8 MiB: 413, the connection closed, long before the 2 GB were sent', async () => {
      const sent = await sendUpload(port, user.key, { head: await jpegBytes(), total: 2_000_000_000, contentType: 'image/jpeg', declareLength: false });
      assert.equal(sent.status, 413, sent.body);
      assert.equal(JSON.parse(sent.body).code, 'PAYLOAD_TOO_LARGE');
      assert.ok(sent.written < 100 * 1024 * 1024, `the client wrote ${sent.written} bytes`);
      assert.deepEqual(files(), []);
    });

    test('a client sending on after its 413 is read to its end, not left blocked until the connection is cut', async () => {
      const after = 32 * 1024 * 1024;
      const sent = await sendPastTheAnswer(port, user.key, await jpegBytes(), after);
      assert.equal(sent.statusLine, 'HTTP/1.1 413 Payload Too Large');
      // All of it left the client: the server went on reading after its answer (one that stopped
      // reading leaves a few MiB in the socket buffers and the rest blocked until it cuts).
      assert.ok(sent.sentAfter >= after, `${sent.sentAfter} of ${after} bytes left the client`);
    });

    test('an upload cut off mid-body leaves no file (not even a temporary one) and no row', async () => {
      const sent = await sendUpload(port, user.key, {
        head: mp4Bytes(),
        total: 20 * 1024 * 1024,
        contentType: 'video/mp4',
        declareLength: true,
        cutAfter: 6 * 1024 * 1024,
      });
      assert.equal(sent.status, null);
      // The server notices the cut when the socket closes; then the temporary file is removed.
      await until('the temporary file removed', () => files().length === 0);
      assert.equal(await rows(), 0);
      // And the server still serves.
      const ok = await sendUpload(port, user.key, { head: mp4Bytes(), total: mp4Bytes().length, contentType: 'video/mp4', declareLength: true });
      assert.equal(ok.status, 201, ok.body);
      assert.equal(files().length, 1);
    });
  });
}
