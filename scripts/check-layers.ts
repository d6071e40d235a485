// The layering of src/ (docs/architecture.md, "Layers"): which top-level folder may import which.
// `node --import tsx scripts/check-layers.ts [srcDir]` prints each import that breaks a rule and
// exits 1; test/layering.test.ts runs it on src/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** For each layer, the layers it must never import (type-only imports included). */
export const FORBIDDEN: Record<string, string[]> = {
  lib: ['db', 'repos', 'services', 'publisher', 'networks', 'http', 'cli', 'context', 'app', 'server', 'worker', 'media', 'network-facts'],
  // The networks' facts, bundled by the web app too: nothing of ours but lib's plain helpers.
  'network-facts': [
    'db',
    'repos',
    'services',
    'publisher',
    'networks',
    'http',
    'cli',
    'context',
    'app',
    'server',
    'worker',
    'media',
    'config',
    'errors',
    'metrics',
  ],
  media: ['db', 'repos', 'services', 'publisher', 'networks', 'http', 'cli', 'context', 'app', 'server', 'worker'],
  db: ['repos', 'services', 'publisher', 'networks', 'http', 'cli', 'media'],
  repos: ['services', 'publisher', 'networks', 'http', 'cli', 'app', 'server', 'worker', 'media'],
  // The network clients (networks/<kind>/ beside their facts, and networks/clients.ts).
  networks: ['services', 'publisher', 'http', 'cli'],
  services: ['publisher', 'http', 'cli'],
  publisher: ['services', 'http', 'cli'],
  http: ['repos', 'publisher', 'networks', 'cli'],
};

export interface Violation {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The networks' facts: the registry and its shared types and counting (networks/index.ts,
 * network.ts, text.ts) and each network's rules (networks/<kind>/rules.ts), which the web app bundles.
 */
function isNetworkFacts(parts: string[]): boolean {
  if (parts[0] !== 'networks') return false;
  if (parts.length === 2) return ['index.ts', 'network.ts', 'text.ts'].includes(parts[1]!.replace(/\.js$/, '.ts'));
  return parts.length === 3 && parts[2]!.replace(/\.js$/, '.ts') === 'rules.ts';
}

/** The layer of a path inside srcDir: its top-level folder (or file, without extension), or `network-facts`. */
function layerOf(srcDir: string, path: string): string {
  const parts = relative(srcDir, path).split(sep);
  if (isNetworkFacts(parts)) return 'network-facts';
  return parts[0]!.replace(/\.(ts|js)$/, '');
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

export function checkLayers(srcDir: string): Violation[] {
  const root = resolve(srcDir);
  const violations: Violation[] = [];
  for (const file of sourceFiles(root)) {
    const from = layerOf(root, file);
    const forbidden = FORBIDDEN[from];
    if (!forbidden) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1]!;
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(root + sep)) continue;
      const to = layerOf(root, target);
      if (forbidden.includes(to)) violations.push({ file: relative(root, file), specifier, from, to });
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const violations = checkLayers(process.argv[2] ?? 'src');
  for (const v of violations) console.error(`${v.file}: ${v.from}/ must not import ${v.to}/ ('${v.specifier}')`);
  process.exit(violations.length ? 1 : 0);
}
