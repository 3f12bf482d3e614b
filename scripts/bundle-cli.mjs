// Bundles the command line and the threads it starts (crawl session, document workers) into
// dist/electron/bundle/, after tsc has compiled them: one file per entry and shared chunks, instead
// of some 300 modules resolved and linked at every start (`harvest crawl` of one page: its first
// request 0.69-0.79 s -> about 0.6 s after the start). Native and optional packages stay in
// node_modules. The worker entries keep their names beside the chunks, where the engine's
// `new URL('./documentWorker.js', import.meta.url)` looks for them, and the bundle sits as deep in
// dist/electron/ as the modules it replaces, so their `../../renderer/` still finds the app.
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Harvest's own code takes only Agent from undici, whose index also loads fetch, WebSocket, cookies
 * and caches: some 60 ms at every start (a one-page crawl's first request about 0.44 s after the
 * start). A name the engine imports that this module lacks fails the build.
 */
const undiciAgentOnly = {
  name: 'undici-agent-only',
  setup(b) {
    const ours = `${path.sep}dist${path.sep}electron${path.sep}`;
    b.onResolve({ filter: /^undici$/ }, (args) => (args.importer.includes(ours) ? { path: 'undici', namespace: 'undici-agent-only' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'undici-agent-only' }, () => ({
      contents: "export { default as Agent } from 'undici/lib/dispatcher/agent.js';",
      resolveDir: process.cwd(),
    }));
  },
};

await build({
  entryPoints: {
    harvest: 'dist/electron/cli/harvest.js',
    crawlWorker: 'dist/electron/host/crawlWorker.js',
    documentWorker: 'dist/electron/engine/crawl/documentWorker.js',
  },
  outdir: 'dist/electron/bundle',
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // better-sqlite3 loads a native addon, pg an optional one, playwright-core and pdf2json read files of their own.
  external: ['better-sqlite3', 'pg', 'playwright-core', 'pdf2json'],
  // CommonJS packages inside an ES module bundle call require(): give them Node's.
  banner: { js: "import { createRequire as harvestRequire } from 'node:module'; const require = harvestRequire(import.meta.url);" },
  plugins: [undiciAgentOnly],
  logLevel: 'warning',
});
