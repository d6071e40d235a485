/**
 * Every place that lists the network kinds lists the registry's (src/networks/index.ts), no more
 * and no fewer: adding a network to the registry fails here until each of them knows it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { COMMANDS } from '../../src/cli/commands.js';
import { NETWORK_KINDS } from '../../src/networks/index.js';
import { NETWORK_NAMES } from '../../web/src/providers.js';
import { describeEachDb } from '../helpers/context.js';

const sorted = (kinds: Iterable<string>) => [...kinds].sort();
const registry = sorted(NETWORK_KINDS);

test("the CLI's usage of `provider add --kind` (cli/commands.ts)", () => {
  const usage = COMMANDS.find((c) => c.name === 'provider add')?.usage ?? '';
  const kinds = /--kind ([A-Z|_]+)/.exec(usage)?.[1]?.split('|') ?? [];
  assert.deepEqual(sorted(kinds), registry, usage);
});

test("the web app's names of the networks (NETWORK_NAMES, web/src/providers.ts)", () => {
  assert.deepEqual(sorted(Object.keys(NETWORK_NAMES)), registry);
});

describeEachDb('the database', (env) => {
  test("the migrations' CHECK on providers.kind", async () => {
    const { rows } = await sql<{ def: string }>`
      SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
      WHERE c.conrelid = 'providers'::regclass AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%kind%'`.execute(env().ctx.db);
    assert.equal(rows.length, 1, JSON.stringify(rows));
    const kinds = [...rows[0]!.def.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!);
    assert.deepEqual(sorted(kinds), registry, rows[0]!.def);
  });
});
