// The web app's API types (web/src/api/openapi.d.ts), generated from the OpenAPI document the
// server builds from its route schemas: `npm run openapi:web` (node --import tsx
// scripts/openapi-types.ts) writes the file; test/web/openapi-types.test.ts fails when the
// committed file is not what this script would write now.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/context.js';
import { openPGlite } from '../src/db/database.js';

export const TYPES_FILE = resolve(import.meta.dirname, '../web/src/api/openapi.d.ts');
export const REGENERATE = 'npm run openapi:web';

const BANNER = `// Generated from the API's OpenAPI document by \`${REGENERATE}\` (scripts/openapi-types.ts); do not edit.
// npm test fails when this file differs from what the server's route schemas give now.

`;

/**
 * The OpenAPI document of the app as `skein serve` builds it. Building the app reads no table,
 * so an empty in-memory database (not migrated) is enough.
 */
async function openApiDocument(): Promise<unknown> {
  const db = await openPGlite(null);
  const config = loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' });
  const ctx = await createContext(config, { skeinSecret: 'openapi-types-openapi-types-openapi-types', threadsAppSecret: null }, { db, skipMigrations: true });
  try {
    const app = await buildApp(ctx);
    await app.ready();
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await ctx.close();
    await db.close();
  }
}

/** The text of web/src/api/openapi.d.ts as the current route schemas give it. */
export async function openApiTypes(): Promise<string> {
  const ast = await openapiTS((await openApiDocument()) as Parameters<typeof openapiTS>[0]);
  return BANNER + astToString(ast);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const text = await openApiTypes();
  let before = '';
  try {
    before = readFileSync(TYPES_FILE, 'utf8');
  } catch {
    // Not written yet.
  }
  writeFileSync(TYPES_FILE, text);
  console.log(`${TYPES_FILE}: ${before === text ? 'unchanged' : 'written'}`);
}
