// The layering of src/ (docs/architecture.md, "Layers"): which top-level folder may import which.
// `node --import tsx scripts/check-layers.ts [srcDir]` prints each import that breaks a rule and
// exits 1; test/layering.test.ts runs it on src/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** For each layer, the layers it must never import (type-only imports included). */
export const FORBIDDEN: Record<string, string[]> = {
  lib: ['db', 'repos', 'services', 'publisher', 'platforms', 'http', 'cli', 'context', 'app', 'server', 'worker', 'media', 'networks'],
  // The networks' facts, bundled by the web app too: nothing of ours but lib's plain helpers.
  networks: ['db', 'repos', 'services', 'publisher', 'platforms', 'http', 'cli', 'context', 'app', 'server', 'worker', 'media', 'config', 'errors', 'metrics'],
  media: ['db', 'repos', 'services', 'publisher', 'platforms', 'http', 'cli', 'context', 'app', 'server', 'worker'],
  db: ['repos', 'services', 'publisher', 'platforms', 'http', 'cli', 'media'],
  repos: ['services', 'publisher', 'platforms', 'http', 'cli', 'app', 'server', 'worker', 'media'],
  platforms: ['services', 'publisher', 'http', 'cli'],
  services: ['publisher', 'http', 'cli'],
  publisher: ['services', 'http', 'cli'],
  http: ['repos', 'publisher', 'platforms', 'cli'],
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

/** The top-level folder (or file, without extension) of a path inside srcDir. */
function layerOf(srcDir: string, path: string): string {
  const first = relative(srcDir, path).split(sep)[0]!;
  return first.replace(/\.(ts|js)$/, '');
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
