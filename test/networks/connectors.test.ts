/**
 * Adding a network's connect is its networks/<kind>/connect.ts and its entry in CONNECTORS: the
 * generic connect routes dispatch through it, so every connect method a network's facts name
 * must have its part there (the types say so too; this holds at run time).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetworkConnect } from '../../src/networks/connect.js';
import { CONNECTORS } from '../../src/networks/connectors.js';
import { NETWORK_KINDS, NETWORKS, OAUTH_KINDS } from '../../src/networks/index.js';

const connectorOf = (kind: string): NetworkConnect<never> | undefined => (CONNECTORS as Record<string, NetworkConnect<never>>)[kind];

test('every network of the registry has a connector, and no connector is of a kind the registry lacks', () => {
  assert.deepEqual(Object.keys(CONNECTORS).sort(), [...NETWORK_KINDS].sort());
});

test("a network that connects through its sign-in page (connect: 'oauth') has the connector's oauth part, and only such a network", () => {
  for (const kind of NETWORK_KINDS) {
    const oauth = (NETWORKS[kind].connect as readonly string[]).includes('oauth');
    assert.equal(typeof connectorOf(kind)?.oauth?.authorize === 'function', oauth, `${kind}: oauth.authorize`);
    assert.equal(typeof connectorOf(kind)?.oauth?.exchange === 'function', oauth, `${kind}: oauth.exchange`);
  }
  assert.deepEqual(
    OAUTH_KINDS,
    NETWORK_KINDS.filter((kind) => connectorOf(kind)?.oauth),
  );
});

test("a network connected with a credential pasted in (connect: 'token' or 'appPassword') has the connector's credentials part, and only such a network", () => {
  for (const kind of NETWORK_KINDS) {
    const credentials = NETWORKS[kind].connect.some((method) => method !== 'oauth');
    assert.equal(typeof connectorOf(kind)?.credentials?.verify === 'function', credentials, `${kind}: credentials.verify`);
    assert.equal(typeof connectorOf(kind)?.credentials?.faults === 'function', credentials, `${kind}: credentials.faults`);
  }
});
