import { defineConfig } from 'vite';

// Built with `vite build web` (npm run build): paths below are relative to web/. The output goes
// to dist/web, next to the compiled server, which serves it (src/http/web-app.ts). JSX is
// Preact's automatic runtime; a build needs no plugin for it.
export default defineConfig({
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
  },
});
