/**
 * The first start on an empty database creates the owner and prints its key. Several instances
 * starting at once on one empty database (docs/deploy.md) must not fail on each other.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOwnerIfEmpty } from '../src/bootstrap.js';
import { describeEachDb } from './helpers/context.js';

describeEachDb('first start', (env) => {
  test('three instances creating the owner at once: one owner, one banner, no error', async () => {
    const { ctx } = env();
    await ctx.db.deleteFrom('accounts').execute();
    const banners = await Promise.all([createOwnerIfEmpty(ctx), createOwnerIfEmpty(ctx), createOwnerIfEmpty(ctx)]);
    const printed = banners.filter((b) => b !== null);
    assert.equal(printed.length, 1, 'exactly one instance prints the key');
    assert.match(printed[0]!, /owner@localhost/);
    const owners = await ctx.db.selectFrom('accounts').select('email').execute();
    assert.deepEqual(
      owners.map((o) => o.email),
      ['owner@localhost'],
    );
    assert.equal(await createOwnerIfEmpty(ctx), null, 'a later start prints nothing');
  });
});
