import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagOf, IF_MATCH_PATTERN, ifMatchAllows, parseIfMatch } from '../../src/lib/etag.js';

test('etagOf: a strong tag holding the version', () => {
  assert.equal(etagOf(12), '"12"');
});

test('If-Match: *, lists, empty elements and whitespace (RFC 9110 §5.6.1, §13.1.1)', () => {
  assert.deepEqual(parseIfMatch('*'), { any: true });
  assert.deepEqual(parseIfMatch(' * '), { any: true });
  const list = parseIfMatch(', "3" ,,\t"4",')!;
  assert.ok(list && !list.any);
  assert.ok(ifMatchAllows(list, 3));
  assert.ok(ifMatchAllows(list, 4));
  assert.ok(!ifMatchAllows(list, 5));
  assert.ok(ifMatchAllows(parseIfMatch('*')!, 1));
});

test('If-Match compares strongly: a weak tag never matches', () => {
  const weak = parseIfMatch('W/"7"')!;
  assert.ok(!ifMatchAllows(weak, 7));
  const mixed = parseIfMatch('W/"7", "8"')!;
  assert.ok(!ifMatchAllows(mixed, 7));
  assert.ok(ifMatchAllows(mixed, 8));
});

test('If-Match syntax: anything else is refused (null), as the route schema refuses it', () => {
  const schema = new RegExp(IF_MATCH_PATTERN, 'u');
  for (const bad of ['', ' ', '7', '"7', '7"', '"7" "8"', '*, "7"', '"7", *', 'w/"7"', 'W/ "7"', '"a"b', '"with"quote"']) {
    assert.equal(parseIfMatch(bad), null, bad);
    assert.equal(schema.test(bad), false, bad);
  }
  for (const good of ['*', '"7"', '""', 'W/"7"', '"x", W/"y"', '"\u00e9"', '"7",']) {
    assert.notEqual(parseIfMatch(good), null, good);
    assert.equal(schema.test(good), true, good);
  }
  // Linear on long hostile values.
  const started = performance.now();
  parseIfMatch(`"1"${' ,'.repeat(5000)} x`);
  parseIfMatch(`${','.repeat(5000)}W`);
  assert.ok(performance.now() - started < 200);
});
