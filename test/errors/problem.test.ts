import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PROBLEM_TITLES, problem, problemType } from '../../src/errors/problem.js';
import { createTestEnv } from '../helpers/context.js';

const errorsGuide = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const anchors = new Set([...errorsGuide.matchAll(/<a id="([a-z-]+)"><\/a>`([A-Z_]+)`/g)].map(([, id, code]) => `${id} ${code}`));

test("every problem's type names its code's row in docs/errors.md, the page the web app serves at /guide/errors", async (t) => {
  for (const code of [...Object.keys(PROBLEM_TITLES), 'NOT_READY']) {
    const id = problemType(code).split('#')[1];
    assert.ok(anchors.has(`${id} ${code}`), `docs/errors.md has no row <a id="${id}"></a>\`${code}\``);
  }

  const env = await createTestEnv('pglite');
  t.after(() => env.close());
  // A first query: a PGlite closed before any query keeps the process from exiting.
  assert.equal((await env.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  const unknown = await env.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
  const body = unknown.json();
  assert.equal(body.type, '/guide/errors#not-found');
  assert.ok(anchors.has(`not-found ${body.code}`));
  assert.equal(problem(412, 'PRECONDITION_FAILED', 'x').type, '/guide/errors#precondition-failed');
});
