import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { escapeCommentary, LINKEDIN } from '../../../src/networks/linkedin/rules.js';
import { renderLittleText } from '../../helpers/fakes/linkedin-rules.js';

const RESERVED = '|{}@[]()<>#\\*_~';

describe('LinkedIn rules', () => {
  test('escaping then rendering as LinkedIn does gives back the text exactly, whatever it holds', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom(...RESERVED.split(''), ' ', '\n', 'a', 'é', '1', '😀'), fc.string({ maxLength: 1 })) });
    fc.assert(
      fc.property(text, (raw) => {
        const rendered = renderLittleText(escapeCommentary(raw));
        assert.equal(rendered.cut, false);
        assert.equal(rendered.text, raw);
      }),
      { numRuns: 2000 },
    );
  });

  test('a #tag stays a hashtag; every other reserved character is escaped; unescaped text is cut where LinkedIn cuts it', () => {
    const raw = 'Shipped v1.0 (finally) #release a#b #_x @[Acme](urn:li:organization:1) \\o/';
    const escaped = escapeCommentary(raw);
    assert.equal(escaped, 'Shipped v1.0 \\(finally\\) #release a\\#b \\#\\_x \\@\\[Acme\\]\\(urn:li:organization:1\\) \\\\o/');
    assert.deepEqual(renderLittleText(escaped).hashtags, ['release']);
    assert.deepEqual(renderLittleText(raw), { text: 'Shipped v1.0 ', hashtags: [], mentions: [], cut: true });
  });

  test('the first post counts as sent (escapes included, 3,000); a comment counts plain (1,250)', () => {
    assert.deepEqual(LINKEDIN.countText('(a)'), [{ unit: 'characters', count: 5, max: 3000 }]);
    assert.deepEqual(LINKEDIN.countText('(a)', { position: 1 }), [{ unit: 'characters', count: 3, max: 1250 }]);
    assert.equal(LINKEDIN.laterPosts.imagesPerPost, 1);
    assert.deepEqual(LINKEDIN.options.firstPostOnly, ['poll']);
    assert.deepEqual(LINKEDIN.options.replyControls, ['everyone', 'nobody']);
  });
});
