import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type KyselyPlugin, sql } from 'kysely';
import { CompiledStatements } from '../../src/repos/compiled.js';
import { describeEachDb } from '../helpers/context.js';

/** A plugin that changes nothing: a handle with any plugin may compile another text. */
const noopPlugin: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => args.result,
};

describeEachDb('compiled statements', (env) => {
  test('a shape is compiled once for the database, inside transactions too, and runs with each call’s values', async () => {
    const { ctx } = env();
    const statements = new CompiledStatements();
    let builds = 0;
    const echo = (db: typeof ctx.db, values: { word: string; at: Date }) =>
      statements.runRaw<{ word: string; at: Date }, typeof values>(
        db,
        'echo',
        (param) => {
          builds++;
          return sql`SELECT ${param('word')}::text AS word, ${param('at')}::timestamptz AS at`;
        },
        values,
      );
    const at = new Date('2026-11-29T12:00:00.000Z');
    assert.deepEqual((await echo(ctx.db, { word: 'pool', at })).rows, [{ word: 'pool', at }]);
    for (const word of ['first', 'second']) {
      const { rows } = await ctx.db.transaction().execute((trx) => echo(trx, { word, at }));
      assert.deepEqual(rows, [{ word, at }]);
    }
    assert.equal(builds, 1);
  });

  test('a handle with a plugin compiles every time (a plugin may rewrite the text)', async () => {
    const { ctx } = env();
    const statements = new CompiledStatements();
    let builds = 0;
    const withPlugin = ctx.db.withPlugin(noopPlugin);
    for (const n of [1, 2]) {
      const { rows } = await statements.runRaw(
        withPlugin,
        'plugged',
        (param) => {
          builds++;
          return sql<{ n: number }>`SELECT ${param('n')}::int AS n`;
        },
        { n },
      );
      assert.deepEqual(rows, [{ n }]);
    }
    assert.equal(builds, 2);
  });

  test('a placeholder is typed as its value: a string for a timestamp column does not compile', async () => {
    const { ctx } = env();
    const statements = new CompiledStatements();
    const { rows } = await statements.run(
      ctx.db,
      'typed',
      (param) =>
        ctx.db
          .selectFrom('threads')
          .select('id')
          // @ts-expect-error `from` is a string, and scheduled_at compares with a Date
          .where('scheduled_at', '>=', param('from'))
          .where('id', '=', param('id')),
      { from: '2026-11-29T12:00:00.000Z', id: 'none' },
    );
    assert.deepEqual(rows, []);
  });
});
