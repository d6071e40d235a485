// npm's `prepare` hook: build dist/ after `npm ci` / `npm install`.
//
// `npx skein …` in a checkout links the folder into npx's cache on its first run and runs this hook
// again (npm_command=exec). Rebuilding then empties dist/ under whatever already runs from it (a
// server, the test suite), so under npx an existing build is kept.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = existsSync(new URL('../dist/server.js', import.meta.url));
if (process.env.npm_command === 'exec' && built) {
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(build.status ?? 1);
