import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { createLogger } from '../../src/lib/logger.js';
import { createTestEnv, type TestEnv } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
let env: TestEnv & { close(): Promise<void> };

before(async () => {
  env = await createTestEnv('pglite', { logger: createLogger('trace', sink) });
});
after(() => env.close());

test('request logs carry request ids and never a key, token or secret', async () => {
  const { app, ctx } = env;
  const user = await createUser(ctx);
  const provider = await createProvider(ctx, user.account, 'THREADS');
  const token = ctx.secrets.decrypt(
    (await ctx.db.selectFrom('providers').select('access_token_enc').where('id', '=', provider.id).executeTakeFirstOrThrow()).access_token_enc!,
  );
  await app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${user.key}`, 'x-request-id': 'trace-me-1' } });
  await app.inject({ method: 'GET', url: '/api/v1/providers', headers: { 'x-api-key': user.key } });
  await app.inject({ method: 'POST', url: '/api/v1/keys', headers: { 'x-api-key': user.key }, payload: { name: 'new' } });
  await app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: 'Bearer skein_wrongwrongwrongwrongwrongwrongwrongwrong' } });
  assert.ok(lines.length > 4, 'something was logged');
  assert.ok(
    lines.some((l) => l.includes('"reqId":"trace-me-1"')),
    'the request id is in the log',
  );
  for (const line of lines) {
    assert.ok(!line.includes(user.key), `key leaked: ${line}`);
    assert.ok(!line.includes('skein_wrong'), `presented key leaked: ${line}`);
    assert.ok(!line.includes(token), `token leaked: ${line}`);
    assert.ok(!/skein_[A-Za-z0-9_-]{32}/.test(line), `a key-shaped value leaked: ${line}`);
  }
});

test('pretty logs are readable lines (no JSON), still without keys', () => {
  const pretty: string[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      pretty.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('info', out, 'pretty');
  logger.info({ reqId: 'abc', accessToken: 'tok_secret_value' }, 'publisher started');
  assert.equal(pretty.length >= 1, true);
  assert.match(pretty[0]!, /INFO.*publisher started/);
  assert.ok(!pretty[0]!.startsWith('{'), 'not a JSON line');
  assert.ok(!pretty.join('\n').includes('tok_secret_value'), 'token redacted');
});

test("an OAuth callback's code and state, a signed URL's signature and a review link's token never reach the log", async () => {
  const { app } = env;
  const from = lines.length;
  await app.inject({ method: 'GET', url: '/api/v1/providers/threads/callback?code=OAUTH-CODE-SECRET&state=STATE-SECRET-123&returnTo=web' });
  await app.inject({ method: 'GET', url: '/media/x.png?X-Amz-Signature=SIG-SECRET-456&X-Amz-Credential=CRED-SECRET&teamId=personal' });
  await app.inject({ method: 'GET', url: '/api/v1/review/REVIEW-TOKEN-SECRET' });
  await app.inject({ method: 'POST', url: '/api/v1/review/REVIEW-TOKEN-SECRET2/threads/t1/approve', payload: { name: 'x' } });
  await app.inject({ method: 'GET', url: '/review/REVIEW-TOKEN-SECRET3?x=1' });
  env.ctx.logger.info({ url: 'https://bucket.example/a.png?X-Amz-Signature=SIG-SECRET-789&w=1' }, 'a link got no card');
  const logged = lines.slice(from).join('\n');
  assert.ok(logged.includes('/api/v1/providers/threads/callback?code=[redacted]&state=[redacted]&returnTo=web'), logged);
  assert.ok(logged.includes('teamId=personal'), 'other parameters stay, for debugging');
  assert.ok(logged.includes('/api/v1/review/[redacted]/threads/t1/approve'), logged);
  for (const secret of ['OAUTH-CODE-SECRET', 'STATE-SECRET-123', 'SIG-SECRET-456', 'CRED-SECRET', 'SIG-SECRET-789', 'REVIEW-TOKEN-SECRET']) {
    assert.ok(!logged.includes(secret), `${secret} leaked: ${logged}`);
  }
});
