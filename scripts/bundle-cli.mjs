// Bundles the command line and the threads it starts (crawl session, document workers) into
// dist/electron/bundle/, after tsc has compiled them: one file per entry and shared chunks, instead
// of some 300 modules resolved and linked at every start (`harvest crawl` of one page: its first
// request 0.69-0.79 s -> about 0.6 s after the start). Native and optional packages stay in
// node_modules. The worker entries keep their names beside the chunks, where the engine's
// `new URL('./documentWorker.js', import.meta.url)` looks for them, and the bundle sits as deep in
// dist/electron/ as the modules it replaces, so their `../../renderer/` still finds the app.
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const pkg = (file) => JSON.stringify(path.resolve('node_modules', file));

/**
 * Imports whose module loads far more than Harvest takes from it, compiled at every start: undici's
 * index also loads fetch, WebSocket, cookies and caches; htmlparser2's its DOM, serializer and DOM
 * utilities around the tokenizer; encoding-sniffer's a decoder with its own copy of iconv-lite, and
 * the WHATWG label table it asks for comes with a third copy; zod's error messages come in 60-odd
 * languages (Harvest reports in English, which zod loads apart). Imported from a file whose path
 * holds `from`, each gets a module of just what is taken (by path where an exports map hides it); a
 * name taken that it lacks fails the build. Other importers (cheerio, loaded only by focused crawls)
 * keep the whole package. With iconv-lite loaded from node_modules when a legacy charset needs it,
 * the code a command loads went from 2.97 to 0.95 MB (a one-page crawl's first request 399 -> 366 ms
 * after the start, peak RSS 138 -> 125 MB, medians of 8 alternate runs).
 */
const slimmed = [
  { name: 'undici', from: '/dist/electron/', contents: "export { default as Agent } from 'undici/lib/dispatcher/agent.js';" },
  { name: 'htmlparser2', from: '/dist/electron/', contents: `export { default as Tokenizer, QuoteType } from ${pkg('htmlparser2/dist/esm/Tokenizer.js')};` },
  { name: 'encoding-sniffer', from: '/dist/electron/', contents: `export { getEncoding } from ${pkg('encoding-sniffer/dist/esm/sniffer.js')};` },
  {
    // whatwg-encoding's own labelToName, without the decoder (and iconv-lite) its module loads first.
    name: 'whatwg-encoding',
    from: '/encoding-sniffer/',
    contents: `import names from ${pkg('whatwg-encoding/lib/labels-to-names.json')};
export const labelToName = (label) => names[String(label).trim().toLowerCase()] || null;`,
  },
  { name: '../locales/index.js', from: '/zod/v4/', contents: `export { default as en } from ${pkg('zod/v4/locales/en.js')};` },
];
const slimImports = {
  name: 'slim-imports',
  setup(b) {
    const ours = `${path.sep}dist${path.sep}electron${path.sep}`;
    const names = new RegExp(`^(${slimmed.map((s) => s.name.replace(/[./]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter: names }, (args) => {
      const i = slimmed.findIndex((s) => s.name === args.path && args.importer.includes(s.from.replaceAll('/', path.sep)));
      return i < 0 ? undefined : { path: String(i), namespace: 'slim-imports' };
    });
    b.onLoad({ filter: /.*/, namespace: 'slim-imports' }, (args) => ({ contents: slimmed[Number(args.path)].contents, resolveDir: process.cwd() }));
    // Only ours: a package's own nested copy (another version) stays bundled with it.
    b.onResolve({ filter: /^iconv-lite$/ }, (args) => (args.importer.includes(ours) ? { path: 'iconv-lite', external: true } : undefined));
  },
};

const outdir = 'dist/electron/bundle';
// Chunks are named by content: without this, every build would leave the last one's beside it.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: {
    harvest: 'dist/electron/cli/harvest.js',
    crawlWorker: 'dist/electron/host/crawlWorker.js',
    documentWorker: 'dist/electron/engine/crawl/documentWorker.js',
  },
  outdir,
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
  plugins: [slimImports],
  // V8 keeps each module's source in memory, and a comment with one character beyond Latin-1 (an
  // em dash) makes it two bytes per character: without comments and indentation the sources a
  // one-page crawl holds went from 3.5 to 2.4 MB and its peak RSS 83.1 -> 81.0 MiB (medians of 7).
  // The maps beside the chunks turn a stack trace's positions back into lines (node --enable-source-maps).
  minifyWhitespace: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
// Executable, as npm makes a package's bin: run through its first line, it starts node with the
// memory settings written there (electron/cli/harvest.ts).
chmodSync(`${outdir}/harvest.js`, 0o755);
