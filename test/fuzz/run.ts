/**
 * npm run fuzz -- [--runs N] [--db pglite|postgres|both] [--seed S] [--route "METHOD /path"]... [--path P] [--no-shrink] [--json]
 *
 * Generated hostile requests against the in-process app (app.inject, a share over a real socket)
 * on each database; prints the failures by kind with a curl line each, exits 1 on a new one.
 * `--path P` (with the seed it was printed with) replays one case and shrinks it.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import type { DbKind } from '../../src/db/database.js';
import { type FuzzReport, FuzzTarget, formatReport, fuzz, Runner, requestsOf } from './harness.js';
import { curlLine, render } from './requests.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    db: { type: 'string', default: 'both' },
    seed: { type: 'string' },
    route: { type: 'string', multiple: true, default: [] },
    path: { type: 'string' },
    'no-shrink': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

// The same database templates as npm test (PGlite dump, PostgreSQL template database).
if (!process.env.SKEIN_TEST_PGLITE_TEMPLATE) {
  const prep = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-test-db.ts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (prep.status !== 0) {
    console.error('fuzz: could not prepare the test databases');
    process.exit(1);
  }
  Object.assign(process.env, JSON.parse(prep.stdout.trim().split('\n').pop()!));
}
process.env.LOG_LEVEL ??= 'silent';

const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const runs = Number(values.runs);
const kinds: DbKind[] = values.db === 'both' ? ['pglite', 'postgres'] : [values.db as DbKind];
if (kinds.includes('postgres') && process.env.SKEIN_TEST_PG_SKIP) {
  console.error(`fuzz: PostgreSQL is not reachable (${process.env.SKEIN_TEST_PG_SKIP})`);
  if (values.db !== 'both') process.exit(1);
  kinds.splice(kinds.indexOf('postgres'), 1);
}

if (values.path !== undefined) {
  for (const kind of kinds) {
    const target = await FuzzTarget.open(kind);
    try {
      const runner = new Runner(target);
      const result = await fc.check(
        fc.asyncProperty(requestsOf(target.routes, values.route), async (request) => (await runner.run(request)).failures.length === 0),
        { seed, path: values.path, numRuns: 1, endOnFailure: false },
      );
      if (!result.failed || !result.counterexample) console.log(`[${kind}] seed ${seed} path ${values.path}: passes`);
      else {
        const request = result.counterexample[0];
        const outcome = await runner.run(request);
        console.log(`[${kind}] seed ${seed} path ${result.counterexamplePath}: ${outcome.failures.map((f) => `${f.kind}: ${f.detail}`).join('; ')}`);
        console.log(`  mutations: ${request.mutations.join('; ') || 'none'}`);
        console.log(
          `  ${curlLine(render(request, target.world.resolver(runner.caller(request)), target.keys), target.keys, () => '(body too large to print)')}`,
        );
      }
    } finally {
      await target.close();
    }
  }
  process.exit(0);
}

console.log(`fuzz: seed ${seed}, ${runs} runs per database on ${kinds.join(' and ')}`);
const reports: FuzzReport[] = [];
for (const kind of kinds) {
  const report = await fuzz({ kind, runs, seed, routes: values.route, shrink: !values['no-shrink'], log: (line) => console.log(line) });
  reports.push(report);
  console.log(values.json ? JSON.stringify(report) : formatReport(report));
}
const fresh = reports.flatMap((r) => r.failures.filter((f) => !f.known));
process.exit(fresh.length ? 1 : 0);
