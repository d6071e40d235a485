/**
 * The places a new network must touch beside its own folder (src/networks/<kind>/) and its fake
 * (test/helpers/fakes/): each lists the registry's kinds (src/networks/index.ts), no more and no
 * fewer, so adding a network to the registry fails here, naming the place, until each knows it.
 * docs/architecture.md's "add a network" row is this list. The others follow from the registry:
 * the API's kinds (http/schemas/common.ts), `GET /api/v1/networks`, the content rules, the CLI,
 * the web app's names, counters and options.
 *
 *   1. src/networks/index.ts          its entry in NETWORKS (the facts in <kind>/rules.ts)
 *   2. src/networks/clients.ts        its Platform, built for the publisher (createPlatforms)
 *   3. src/networks/connectors.ts     its connect part (<kind>/connect.ts) in CONNECTORS
 *   4. src/db/migrations/00NN-*.ts    a migration widening the providers' kind CHECK
 *   5. src/config/config.ts           its settings (an app's id, an API URL for its fake), and
 *                                     src/config/secrets.ts for an app's secret
 *
 * A credentials network's route (`POST /api/v1/providers/<network>`, its body and words) is its
 * connector's `credentials.route`, so it needs no place of its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { createPlatforms } from '../../src/networks/clients.js';
import { CONNECTORS } from '../../src/networks/connectors.js';
import { NETWORK_KINDS, NETWORKS } from '../../src/networks/index.js';
import { NETWORK_NAMES } from '../../web/src/providers.js';
import { describeEachDb } from '../helpers/context.js';

const sorted = (kinds: Iterable<string>) => [...kinds].sort();
const registry = sorted(NETWORK_KINDS);

test('1. every network of the registry has its facts under its own kind', () => {
  for (const kind of NETWORK_KINDS) assert.equal(NETWORKS[kind].kind, kind);
});

test('3. its connect part (CONNECTORS, src/networks/connectors.ts)', () => {
  assert.deepEqual(sorted(Object.keys(CONNECTORS)), registry);
});

test("derived, not a place: a credentials network's route (its connector's `credentials.route`)", () => {
  const credentials = NETWORK_KINDS.filter((kind) => NETWORKS[kind].connect.some((method: string) => method !== 'oauth'));
  const routed = NETWORK_KINDS.filter((kind) => (CONNECTORS[kind] as { credentials?: { route?: unknown } }).credentials?.route);
  assert.deepEqual(sorted(routed), sorted(credentials));
});

test("derived, not a place: the web app's names of the networks (NETWORK_NAMES, web/src/providers.ts)", () => {
  assert.deepEqual(sorted(Object.keys(NETWORK_NAMES)), registry);
});

describeEachDb('the places that need a context', (env) => {
  test('2. its Platform for the publisher (createPlatforms, src/networks/clients.ts)', () => {
    assert.deepEqual(sorted(Object.keys(createPlatforms(env().ctx))), registry);
  });

  test("4. the migrations' CHECK on providers.kind", async () => {
    const { rows } = await sql<{ def: string }>`
      SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
      WHERE c.conrelid = 'providers'::regclass AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%kind%'`.execute(env().ctx.db);
    assert.equal(rows.length, 1, JSON.stringify(rows));
    const kinds = [...rows[0]!.def.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!);
    assert.deepEqual(sorted(kinds), registry, rows[0]!.def);
  });

  test('5. the settings of every network that signs in through its own app name it (config.ts, its connect setup)', () => {
    // Without its settings, an OAuth network's connect names what to set (409 NETWORK_NOT_CONFIGURED).
    for (const kind of NETWORK_KINDS) {
      const oauth = (CONNECTORS[kind] as { oauth?: { setup(ctx: unknown): { missing: { setting: string }[] } } }).oauth;
      if (!oauth || kind === 'MASTODON') continue; // Mastodon registers itself on each server: no settings.
      const missing = oauth.setup(env().ctx).missing.map((m) => m.setting);
      assert.ok(missing.length > 0, `${kind} names the settings it needs`);
    }
  });
});
