// Manual checking only (not shipped, not tested): serves dist/renderer like `harvest serve` does,
// with a fake API and event stream of canned data, and a second listener as the archive viewer.
// Usage: node renderer/dev/fakeHost.mjs [port]  -> prints the app URL.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', 'dist', 'renderer');
const token = 'devtoken0123456789abcdef';
const base = `/t/${token}/`;
const port = Number(process.argv[2] ?? 5173);
const viewerPort = port + 1;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

const defaults = {
  name: 'Untitled harvest',
  scope: { mode: 'host', include: [], exclude: [] },
  limits: { maxDepth: null, maxPages: null, maxBytes: null, maxDurationMs: null },
  politeness: { perHostConnections: 2, delayMs: null, respectRobots: true },
  traps: { maxUrlLength: 2048, maxPathSlashes: 15, maxSegmentRepeats: 3, maxQueryParams: 12, maxQueryVariantsPerPath: 500 },
  fetch: { connectTimeoutMs: 10000, headersTimeoutMs: 30000, bodyIdleTimeoutMs: 30000, deadlineMs: 120000, maxResponseBytes: 104857600, maxRedirects: 10, maxRetries: 2 },
  warc: { enabled: true, maxFileBytes: 1073741824 },
  offsiteRequisites: true,
  contactUrl: null,
  request: { acceptLanguage: '', userAgentSuffix: '', headers: [], cookies: [], basicAuth: { username: '', password: '', urlPrefix: '' } },
};
const counts = (archived, queued, extra = {}) => ({
  discovered: archived + queued + 40, queued, inFlight: queued ? 2 : 0, archived, redirects: 12, httpErrors: 3, failed: 1, skipped: 24,
  skippedByReason: { scope: 14, robots: 6, 'trap:query-variants': 4 }, bytes: archived * 48_000, ...extra,
});
const now = new Date().toISOString();
const job = (id, name, seed, status, c, durationMs = 0) => ({
  id, job: { ...defaults, name, seeds: [seed] }, archiveDir: `/home/archivist/.local/share/Harvest/archives/${id}`, status,
  error: null, createdAt: `2026-11-2${id.length}T09:00:00.000Z`, updatedAt: now, revision: 0, counts: c, durationMs,
});
const jobs = new Map([
  ['lib', job('lib', 'University Library', 'https://library.example.edu/', 'running', counts(1800, 3200), 95_000)],
  ['arts', job('arts', 'Faculty of Arts', 'https://arts.example.edu/', 'paused', counts(640, 910), 40_000)],
  ['news', job('news', 'Campus News', 'https://news.example.edu/', 'interrupted', counts(2200, 150), 130_000)],
  ['museum', job('museum', 'Museum 2026', 'https://museum.example.org/', 'finished', counts(5000, 0), 410_000)],
]);
const archives = () => [...jobs.values()].map((j) => ({
  jobId: j.id, name: j.job.name, seeds: j.job.seeds, archiveDir: j.archiveDir, createdAt: j.createdAt,
  finishedAt: j.status === 'finished' ? now : null, status: j.status, pages: j.counts?.archived ?? 0, bytesOnDisk: (j.counts?.bytes ?? 0) * 1.1,
}));
const STATES = ['archived', 'archived', 'archived', 'queued', 'redirect', 'skipped', 'http-error'];
const urlRow = (jobId, i) => {
  const state = STATES[i % STATES.length];
  return {
    url: `https://${jobId}.example.edu/section-${i % 97}/page-${i}.html`, state, depth: i % 6, httpStatus: state === 'http-error' ? 404 : state === 'archived' ? 200 : null,
    contentType: 'text/html', bytes: state === 'archived' ? 12_000 + (i % 5000) : null, localPath: state === 'archived' ? `section-${i % 97}/page-${i}.html` : null,
    redirectTo: null, skipReason: state === 'skipped' ? 'scope' : null, error: null,
  };
};
const pageRow = (jobId, i) => ({ url: `https://${jobId}.example.edu/section-${i % 97}/page-${i}.html`, title: `Page ${i} of section ${i % 97}`, localPath: i === 0 ? 'index.html' : `section-${i % 97}/page-${i}.html` });
const exports = new Map();
let exportSerial = 0;
let revisions = 0;

const clients = new Set();
const push = (event) => { for (const res of clients) res.write(`data: ${JSON.stringify(event)}\n\n`); };
const ok = (value) => ({ ok: true, value });
const fail = (code, message, issues) => ({ ok: false, error: { code, message, ...(issues ? { issues } : {}) } });
const setStatus = (id, status) => { const j = jobs.get(id); if (!j) return fail('not-found', 'no such job'); j.status = status; j.updatedAt = new Date().toISOString(); j.revision = ++revisions; push({ type: 'job', job: j }); return ok(j); };

const handlers = {
  'app.info': () => ok({ version: '0.1.0', dataDir: '/home/archivist/.local/share/Harvest', defaults, host: 'web', viewerBase: `http://127.0.0.1:${viewerPort}/${token}/` }),
  'app.ping': (a) => ok(a),
  'jobs.list': () => ok([...jobs.values()]),
  'jobs.create': (a) => {
    const seeds = a.job?.seeds ?? [];
    if (!seeds.length) return fail('invalid-job', 'invalid job', [{ path: 'seeds', message: 'at least one seed URL is needed' }]);
    const id = `job${jobs.size + 1}`;
    const j = job(id, a.job.name ?? 'Untitled harvest', seeds[0], 'new', null);
    j.job = { ...defaults, ...a.job };
    jobs.set(id, j); push({ type: 'job', job: j }); return ok(j);
  },
  'jobs.update': (a) => { const j = jobs.get(a.id); if (!j) return fail('not-found', 'no such job'); j.job = { ...j.job, ...a.job }; push({ type: 'job', job: j }); return ok(j); },
  'jobs.duplicate': (a) => { const src = jobs.get(a.id); const id = `${a.id}-copy${jobs.size}`; const j = { ...job(id, `${src.job.name} (copy)`, src.job.seeds[0], 'new', null), job: { ...src.job, name: `${src.job.name} (copy)` } }; jobs.set(id, j); push({ type: 'job', job: j }); return ok(j); },
  'jobs.delete': (a) => {
    const archiveDir = jobs.get(a.id)?.archiveDir ?? '';
    jobs.delete(a.id);
    push({ type: 'job-deleted', id: a.id });
    return ok({ archiveDir, kept: !a.deleteArchive, removed: a.deleteArchive ? ['catalogue.sqlite', 'mirror', 'warc'] : [], leftBehind: [], folderRemoved: a.deleteArchive, refused: null });
  },
  // Where the viewer frame is: the fake archive names its page in the token (a real host issues one-time tokens).
  'archives.frameLocation': (a) => ok({ localPath: a.token ? Buffer.from(a.token, 'base64url').toString('utf8') : null }),
  'jobs.start': (a) => setStatus(a.id, 'running'),
  'jobs.pause': (a) => { setTimeout(() => setStatus(a.id, 'paused'), 800); return setStatus(a.id, 'pausing'); },
  'jobs.resume': (a) => setStatus(a.id, 'running'),
  'jobs.cancel': (a) => setStatus(a.id, 'cancelled'),
  'jobs.urls': (a) => {
    const total = a.search ? 1234 : a.state ? 250_000 : 1_000_000;
    const offset = a.offset ?? 0; const limit = Math.min(a.limit ?? 200, Math.max(0, total - offset));
    return ok({ total, rows: Array.from({ length: limit }, (_, k) => { const r = urlRow(a.id, offset + k); return a.state ? { ...r, state: a.state, skipReason: a.skipReason ?? r.skipReason } : r; }) });
  },
  'archives.list': () => ok(archives()),
  'archives.pages': (a) => {
    const total = a.search ? 37 : 5000; const offset = a.offset ?? 0; const limit = Math.min(a.limit ?? 200, Math.max(0, total - offset));
    return ok({ total, rows: Array.from({ length: limit }, (_, k) => pageRow(a.id, offset + k)) });
  },
  'archives.lookup': (a) => { const m = /page-(\d+)\.html$/.exec(a.localPath); return ok(a.localPath === 'index.html' ? pageRow(a.id, 0) : m ? pageRow(a.id, Number(m[1])) : null); },
  'archives.reveal': (a) => ok({ path: jobs.get(a.id)?.archiveDir ?? '' }),
  'archives.openInBrowser': (a) => ok({ path: `${jobs.get(a.id)?.archiveDir}/mirror/index.html` }),
  'dialog.chooseFolder': () => ok({ path: null }),
  'dialog.chooseExportPath': () => ok({ path: null }),
  'archives.getMetadata': () => ok({ title: '', creator: 'Special Collections', subject: ['universities', 'libraries'], description: '', publisher: '', contributor: [], date: '', type: '', format: '', identifier: '', source: '', language: ['en'], relation: '', coverage: '', rights: '', sourceOrganization: 'Example University', contactEmail: 'archives@example.edu' }),
  'archives.setMetadata': (a) => ok(a.metadata),
  'archives.suggestMetadata': () => ok({ title: 'University Library website', date: '2026-05-14' }),
  'archives.export': (a) => {
    const status = { exportId: `x${++exportSerial}`, jobId: a.id, format: a.format, outPath: a.outPath ?? `/home/archivist/exports/${a.id}.${a.format}`, state: 'running', progress: { phase: 'indexing WARC', doneBytes: 0, totalBytes: 80_000_000 }, result: null, error: null };
    exports.set(status.exportId, status); return ok(status);
  },
  'exports.cancel': (a) => { const s = exports.get(a.exportId); s.state = 'cancelled'; push({ type: 'export', export: s }); return ok(s); },
};

setInterval(() => {
  for (const j of jobs.values()) {
    if (j.status !== 'running') continue;
    const c = j.counts ?? counts(0, 50);
    const step = 20 + Math.round(Math.random() * 15);
    j.counts = { ...c, archived: c.archived + step, queued: Math.max(0, c.queued - step + 12), bytes: c.bytes + step * 48_000 };
    j.durationMs += 500;
    push({ type: 'progress', id: j.id, progress: { type: 'progress', counts: j.counts, urlsPerSec: step * 2, kbPerSec: step * 2 * 47, elapsedMs: j.durationMs, current: [] } });
    push({ type: 'urls', id: j.id, events: [{ type: 'url', url: `https://${j.id}.example.edu/x`, state: 'archived' }] });
  }
  for (const s of exports.values()) {
    if (s.state !== 'running') continue;
    s.progress = { ...s.progress, phase: 'writing', doneBytes: Math.min(s.progress.totalBytes, s.progress.doneBytes + 4_000_000) };
    if (s.progress.doneBytes >= s.progress.totalBytes) { s.state = 'done'; s.result = { bytes: s.progress.totalBytes, files: 1 }; }
    push({ type: 'export', export: s });
  }
}, 500);

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (!url.pathname.startsWith(base)) { res.writeHead(404).end(); return; }
  const rest = url.pathname.slice(base.length);
  if (rest === 'api/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': hello\n\n');
    clients.add(res); req.on('close', () => clients.delete(res));
    return;
  }
  if (rest.startsWith('api/') && req.method === 'POST') {
    let body = ''; for await (const chunk of req) body += chunk;
    const handler = handlers[rest.slice(4)];
    const reply = handler ? handler(JSON.parse(body || '{}')) : fail('invalid-args', 'unknown command');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    return;
  }
  const file = join(dist, rest === '' ? 'index.html' : rest);
  try {
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
  } catch { res.writeHead(404).end(); }
}).listen(port, '127.0.0.1', () => console.log(`http://127.0.0.1:${port}${base}`));

// The viewer origin: a made-up archived page per path, with the location beacon the renderer understands.
createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const n = Number(/page-(\d+)/.exec(path)?.[1] ?? 0);
  const jobPrefix = path.split('/').slice(0, 3).join('/');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Page ${n}</title>
<body style="font-family:Georgia,serif;margin:40px"><h1>Archived page ${n}</h1><p>Served from ${path}</p>
<p><a href="${jobPrefix}/section-${(n + 1) % 97}/page-${n + 1}.html">Next page</a></p>
<script>top.postMessage({ type: 'harvest:location', token: '${Buffer.from(path.split('/').slice(3).join('/')).toString('base64url')}' }, '*')</script></body>`);
}).listen(viewerPort, '127.0.0.1');
