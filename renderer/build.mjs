// Bundles the renderer into dist/renderer/{index.html,app.js,app.css} with esbuild.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', 'dist', 'renderer');
const production = process.env.NODE_ENV !== 'development';

await mkdir(outDir, { recursive: true });
await build({
  entryPoints: [
    { in: join(here, 'main.tsx'), out: 'app' },
    { in: join(here, 'styles', 'app.css'), out: 'app' },
  ],
  outdir: outDir,
  bundle: true,
  // A classic script: module scripts are refused from file: and custom protocols without CORS headers.
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  jsx: 'automatic',
  minify: production,
  sourcemap: true,
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  logLevel: 'warning',
});
await copyFile(join(here, 'index.html'), join(outDir, 'index.html'));
