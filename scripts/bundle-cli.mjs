// Bundles the command line and the threads it starts (crawl session, document workers) into
// dist/electron/bundle/, after tsc has compiled them: one file per entry and shared chunks, instead
// of some 300 modules resolved and linked at every start (`harvest crawl` of one page: its first
// request 0.69-0.79 s -> about 0.6 s after the start). Native and optional packages stay in
// node_modules. The worker entries keep their names beside the chunks, where the engine's
// `new URL('./documentWorker.js', import.meta.url)` looks for them, and the bundle sits as deep in
// dist/electron/ as the modules it replaces, so their `../../renderer/` still finds the app.
import path from 'node:path';
import { build } from 'esbuild';

const pkg = (file) => JSON.stringify(path.resolve('node_modules', file));

/**
 * Packages whose index loads far more than Harvest takes from them, at every start: undici's also
 * loads fetch, WebSocket, cookies and caches (some 60 ms: a one-page crawl's first request 477 ->
 * 426 ms after the start); htmlparser2's its DOM, serializer and DOM utilities around the tokenizer;
 * encoding-sniffer's a decoder with its own copy of iconv-lite, and the WHATWG label table it asks
 * for comes with a third copy. An import of one of these from the files named gets a module of just
 * what is taken (by path where an exports map hides it); a name taken that it lacks fails the build.
 * Other importers (cheerio, loaded only by focused crawls) keep the whole package.
 */
const slimmed = {
  undici: { from: '/dist/electron/', contents: "export { default as Agent } from 'undici/lib/dispatcher/agent.js';" },
  htmlparser2: { from: '/dist/electron/', contents: `export { default as Tokenizer, QuoteType } from ${pkg('htmlparser2/dist/esm/Tokenizer.js')};` },
  'encoding-sniffer': { from: '/dist/electron/', contents: `export { getEncoding } from ${pkg('encoding-sniffer/dist/esm/sniffer.js')};` },
  // whatwg-encoding's own labelToName, without the decoder (and iconv-lite) its module loads first.
  'whatwg-encoding': {
    from: '/encoding-sniffer/',
    contents: `import names from ${pkg('whatwg-encoding/lib/labels-to-names.json')};
export const labelToName = (label) => names[String(label).trim().toLowerCase()] || null;`,
  },
};
const slimImports = {
  name: 'slim-imports',
  setup(b) {
    const names = new RegExp(`^(${Object.keys(slimmed).join('|')})$`);
    b.onResolve({ filter: names }, (args) => (args.importer.includes(slimmed[args.path].from.replaceAll('/', path.sep)) ? { path: args.path, namespace: 'slim-imports' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'slim-imports' }, (args) => ({
      contents: args.path === 'zod-locales' ? `export { default as en } from ${pkg('zod/v4/locales/en.js')};` : slimmed[args.path].contents,
      resolveDir: process.cwd(),
    }));
    // zod's error messages in 60-odd languages (some 360 KB): Harvest reports in English, which zod loads apart.
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}v4${path.sep}`) ? { path: 'zod-locales', namespace: 'slim-imports' } : undefined,
    );
    // Loaded from node_modules when used: bundled, its encoding tables (some 550 KB) are compiled at every start.
    b.onResolve({ filter: /^iconv-lite$/ }, () => ({ path: 'iconv-lite', external: true }));
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
  plugins: [slimImports],
  logLevel: 'warning',
});
