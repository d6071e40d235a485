import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { MAX_API_KEYS_PER_ACCOUNT } from '../../src/services/accounts/api-keys.js';
import { MAX_WEBHOOKS_PER_WORKSPACE } from '../../src/services/notices/webhooks.js';
import { MAX_TIME_SLOTS_PER_WORKSPACE } from '../../src/services/threads/time-slots.js';
import { describeEachDb } from '../helpers/context.js';
import { pngBytes } from '../helpers/media-files.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';

/** Every stored set a caller can grow is bounded: 409 LIMIT_REACHED at the bound, nothing written. */

describeEachDb('limits per workspace: webhooks, keys, time slots', (env) => {
  test(`a workspace has at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; another workspace is counted apart`, async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const hook = (teamId?: string) =>
      user.call(app, {
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { url: 'https://hooks.example/skein', events: ['ping'], ...(teamId ? { teamId } : {}) },
      });
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) assert.equal((await hook()).statusCode, 201);
    const refused = await hook();
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'LIMIT_REACHED');
    assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/webhooks' })).json().webhooks.length, MAX_WEBHOOKS_PER_WORKSPACE);
    const team = await createTeamWith(ctx, user.account, []);
    assert.equal((await hook(team.id)).statusCode, 201);
  });

  test(`an account has at most ${MAX_API_KEYS_PER_ACCOUNT} active keys; a revoked one frees its place`, async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx); // holds one key already
    const create = () => user.call(app, { method: 'POST', url: '/api/v1/keys', payload: { name: 'k' } });
    const ids: string[] = [];
    for (let i = 1; i < MAX_API_KEYS_PER_ACCOUNT; i++) {
      const res = await create();
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    const refused = await create();
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'LIMIT_REACHED');
    assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/keys/${ids[0]}` })).statusCode, 200);
    assert.equal((await create()).statusCode, 201);
  });

  test(`a workspace has at most ${MAX_TIME_SLOTS_PER_WORKSPACE} time slots, over all its accounts`, async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const a = await createProvider(ctx, user.account, 'THREADS');
    const b = await createProvider(ctx, user.account, 'BLUESKY');
    // All but one, written directly (the API would take a while), over both accounts.
    const rows = Array.from({ length: MAX_TIME_SLOTS_PER_WORKSPACE - 1 }, (_, i) => ({
      id: newId(),
      provider_id: i % 2 ? a.id : b.id,
      day_of_week: (i % 7) + 1,
      time: `${String(Math.floor(i / 7) % 24).padStart(2, '0')}:${String(Math.floor(i / 168) * 7 + (i % 7)).padStart(2, '0')}`,
      timezone: 'UTC',
      created_at: new Date(),
    }));
    await ctx.db.insertInto('time_slots').values(rows).execute();
    const add = (time: string) =>
      user.call(app, { method: 'POST', url: '/api/v1/time-slots', payload: { providerId: a.id, dayOfWeek: 1, time, timezone: 'Europe/Paris' } });
    assert.equal((await add('12:34')).statusCode, 201);
    const refused = await add('12:35');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'LIMIT_REACHED');
  });
});

describeEachDb(
  'the media quota per workspace (SKEIN_MEDIA_QUOTA_MB)',
  (env) => {
    test('an upload that would pass the quota is refused with LIMIT_REACHED, its bytes not kept; another workspace has its own', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const png = await pngBytes(64, 48);
      const upload = (query = '') => user.call(app, { method: 'POST', url: `/api/v1/media${query}`, headers: { 'content-type': 'image/png' }, payload: png });
      const rows = async () =>
        Number(
          (
            await ctx.db
              .selectFrom('media_files')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      assert.ok(png.length * 2 > ctx.config.mediaQuotaBytes! && png.length <= ctx.config.mediaQuotaBytes!, `${png.length} bytes`);
      assert.equal((await upload()).statusCode, 201);
      const before = await rows();
      const refused = await upload();
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().code, 'LIMIT_REACHED');
      assert.match(refused.json().detail, /media quota/);
      assert.equal(await rows(), before);
      const team = await createTeamWith(ctx, user.account, []);
      assert.equal((await upload(`?teamId=${team.id}`)).statusCode, 201);
    });
  },
  // The quota in bytes: room for one small PNG, not two.
  { config: (c) => ({ ...c, mediaQuotaBytes: 300 }) },
);
