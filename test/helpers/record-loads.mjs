// `node --import ./test/helpers/record-loads.mjs …`: appends to the file named by SKEIN_LOAD_LOG
// every module the process loads, one URL or path a line: what ESM resolution resolved (through
// a resolve hook) and, at exit, what sits in the CommonJS cache (require() bypasses the hook).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.SKEIN_LOAD_LOG;
if (!log) throw new Error('record-loads: set SKEIN_LOAD_LOG to a file');

const hooks = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url, { data: { log } });
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(log, `${Object.keys(cache).join('\n')}\n`));
