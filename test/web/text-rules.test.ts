/**
 * The editor's live counters (web/src/text-rules.ts, bundled for the browser) against the
 * server's content rules (src/services/content-rules.ts), both over the networks' own counts
 * (src/networks/): over the same samples, the counter says "too long" exactly when the server
 * refuses the text for its length.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NETWORK_KINDS } from '../../src/networks/index.js';
import { graphemesUpTo } from '../../src/networks/text.js';
import { checkText } from '../../src/services/threads/content-rules.js';
import { countText, graphemes, laterPostsAre, utf8Bytes } from '../../web/src/text-rules.js';

const SAMPLES = [
  'hello',
  'a'.repeat(500),
  'a'.repeat(501),
  'é'.repeat(250),
  'é'.repeat(251),
  '🙂'.repeat(125),
  '🙂'.repeat(126),
  '👩‍👩‍👧‍👦'.repeat(40),
  'e\u0301'.repeat(300),
  'e\u0301'.repeat(301),
  'x'.repeat(300),
  'x'.repeat(301),
  '🇩🇪'.repeat(300),
  '中'.repeat(1000),
  '中'.repeat(1001),
  'a'.repeat(3001),
  '   ',
];

test('the editor counts text as the server does, on every network', () => {
  for (const text of SAMPLES) {
    assert.equal(utf8Bytes(text), Buffer.byteLength(text, 'utf8'), `bytes of ${JSON.stringify(text.slice(0, 12))}`);
    assert.equal(Math.min(graphemes(text), 301), graphemesUpTo(text, 300), `graphemes of ${JSON.stringify(text.slice(0, 12))}`);
    for (const network of NETWORK_KINDS) {
      const refused = checkText({ kind: network, limits: null }, text, 'text').some((f) => !f.message.startsWith('must not be empty'));
      assert.equal(countText(network, text).over, refused, `${network}: ${JSON.stringify(text.slice(0, 12))} (${text.length} code units)`);
    }
  }
  assert.equal(countText('THREADS', '   ').empty, true);
  assert.equal(countText('BLUESKY', 'é'.repeat(10)).label, '10 / 300 characters');
  assert.equal(countText('THREADS', 'é'.repeat(10)).label, '20 / 500 bytes');
  assert.equal(countText('BLUESKY', 'a'.repeat(3001)).label, '3001 / 3000 bytes');
  assert.equal(countText('MASTODON', `see https://example.com/${'a'.repeat(40)}`).label, '27 / 500 characters');
});

test('X and LinkedIn: the counter agrees with the server, a LinkedIn comment (a later post) at 1,250', () => {
  const samples = ['a'.repeat(280), 'a'.repeat(281), '😀'.repeat(140), '😀'.repeat(141), `${'a'.repeat(256)} https://example.com/${'p'.repeat(99)}`];
  samples.push('a'.repeat(1250), 'a'.repeat(1251), 'a'.repeat(3000), 'a'.repeat(3001), '#tag (x)'.repeat(374), '#tag (x)'.repeat(375));
  for (const text of samples) {
    for (const network of ['X', 'LINKEDIN'] as const) {
      for (const position of [0, 1]) {
        const refused = checkText({ kind: network, limits: null }, text, 'text', null, position).length > 0;
        assert.equal(countText(network, text, null, position).over, refused, `${network} at ${position}: ${text.length} code units`);
      }
    }
  }
  assert.equal(countText('X', '😀'.repeat(10)).label, '20 / 280 characters');
  assert.equal(countText('LINKEDIN', 'a'.repeat(10), null, 1).label, '10 / 1250 characters');
  assert.equal(countText('LINKEDIN', 'a(b)').label, '6 / 3000 characters');
  assert.equal(countText('X', 'a'.repeat(300), { maxCharacters: 25_000 }).over, false);
  // The preview shows LinkedIn's later posts as comments on the first.
  assert.equal(laterPostsAre('LINKEDIN'), 'comment');
  assert.equal(laterPostsAre('X'), 'reply');
});
