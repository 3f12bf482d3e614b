import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HostEvent, Reply } from '../../shared/contract.js';
import type { AppInfo, JobSummary } from '../../shared/appViews.js';
import { archiveBase, viewerScript } from '../../shared/frameLocation.js';
import { startWebHost, type WebHost } from '../../electron/host/webHost.js';
import { localhostFetch } from '../helpers/localhostFetch.js';

/** A raw request, so headers fetch won't let us forge (Host) can be sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { Host: u.host, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('harvest serve web host', () => {
  let work: string;
  let web: WebHost;
  let job: JobSummary;

  const api = async <T>(command: string, body: unknown): Promise<Reply<T>> => {
    const res = await fetch(`${web.url}api/${command}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
    return (await res.json()) as Reply<T>;
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-web-'));
    const renderer = path.join(work, 'renderer');
    mkdirSync(renderer);
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Harvest</title><script src="app.js"></script>');
    writeFileSync(path.join(renderer, 'app.js'), 'console.log(1)');
    web = await startWebHost({ dataDir: path.join(work, 'data'), rendererDir: renderer });
    const r = await api<JobSummary>('jobs.create', { job: { name: 'Web', seeds: ['http://127.0.0.1:9/'] } });
    assert.ok(r.ok);
    job = r.value;
    const mirror = path.join(job.archiveDir, 'mirror');
    mkdirSync(path.join(mirror, 'css'), { recursive: true });
    writeFileSync(path.join(mirror, 'index.html'), '<!doctype html><title>Home</title>');
    writeFileSync(path.join(mirror, 'css', 'site.css'), 'body{}');
    writeFileSync(path.join(mirror, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(path.join(work, 'secret.txt'), 'outside');
    symlinkSync(path.join(work, 'secret.txt'), path.join(mirror, 'link.txt'));
  });

  after(async () => {
    await web?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('serves the renderer only under its token, with a strict CSP', async () => {
    const page = await fetch(web.url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    // Frames only from the archive listener's host names: never another loopback port.
    assert.match(csp, new RegExp(`frame-src http://\\*\\.localhost:${web.viewerPort}(;|$)`));
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal((await fetch(`${web.url}app.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    const origin = new URL(web.url).origin;
    const bare = await fetch(web.url.slice(0, -1), { redirect: 'manual' });
    assert.equal(bare.status, 308);
    assert.equal(bare.headers.get('location'), new URL(web.url).pathname);
    assert.equal((await fetch(`${origin}/`)).status, 404);
    assert.equal((await fetch(`${origin}/t/${'x'.repeat(32)}/`)).status, 404);
    assert.equal((await fetch(`${web.url}%2e%2e/%2e%2e/package.json`)).status, 404);
    assert.equal(await rawGet(web.url, { Host: 'attacker.example:80' }), 403);
  });

  it('answers commands over POST JSON and refuses cross-origin, non-JSON, malformed and oversized requests', async () => {
    const info = await api<AppInfo>('app.info', {});
    assert.ok(info.ok);
    assert.equal(info.value.host, 'web');
    assert.equal(info.value.viewerBase, web.viewerBase);
    const unknown = await api('nope.nothing', {});
    assert.equal(!unknown.ok && unknown.error.code, 'invalid-args');
    const post = (headers: Record<string, string>, body: string) => fetch(`${web.url}api/app.info`, { method: 'POST', headers, body });
    assert.equal((await post({ 'Content-Type': 'application/json', Origin: 'https://evil.example' }, '{}')).status, 403);
    assert.equal((await post({ 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' }, '{}')).status, 403);
    assert.equal((await post({ 'Content-Type': 'text/plain' }, '{}')).status, 415);
    assert.equal((await post({ 'Content-Type': 'application/json' }, '{oops')).status, 400);
    assert.equal((await post({ 'Content-Type': 'application/json' }, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))).status, 413);
    assert.equal((await fetch(`${web.url}api/app.info`)).status, 404, 'commands are POST only');
  });

  it('streams host events as Server-Sent Events', async () => {
    const ac = new AbortController();
    const res = await fetch(`${web.url}api/events`, { signal: ac.signal });
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const created = api<JobSummary>('jobs.duplicate', { id: job.id });
    let text = '';
    let event: HostEvent | null = null;
    while (event === null) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream stays open');
      text += Buffer.from(value).toString('utf8');
      const line = text.split('\n').find((l) => l.startsWith('data: '));
      if (line) event = JSON.parse(line.slice(6)) as HostEvent;
    }
    ac.abort();
    const dup = await created;
    assert.ok(dup.ok);
    assert.equal(event.type, 'job');
    assert.equal(event.type === 'job' && event.job.id, dup.value.id);
  });

  it("serves a job's mirror on an origin of its own, with MIME types and a CSP confined to that job", async () => {
    const base = archiveBase(web.viewerBase, job.id);
    const own = new URL(base);
    assert.equal(own.hostname, `${job.id}.localhost`, 'a host name of its own');
    assert.equal(own.port, String(web.viewerPort));
    const other = await api<JobSummary>('jobs.duplicate', { id: job.id });
    assert.ok(other.ok);
    assert.notEqual(new URL(archiveBase(web.viewerBase, other.value.id)).origin, own.origin, 'another job, another origin');
    await api('archives.setScripts', { id: job.id, allowed: true });
    const home = await localhostFetch(base);
    assert.equal(home.status, 200);
    // HTML pages get the viewer's script; the file on disk stays as harvested.
    const body = await home.text();
    assert.equal(body, `<!doctype html><script>${viewerScript(null)}</script><title>Home</title>`);
    assert.equal(home.headers.get('content-length'), String(Buffer.byteLength(body)));
    assert.equal(readFileSync(path.join(job.archiveDir, 'mirror', 'index.html'), 'utf8'), '<!doctype html><title>Home</title>');
    const csp = home.headers.get('content-security-policy') ?? '';
    assert.match(csp, new RegExp(`default-src ${base} data: blob:`));
    assert.match(csp, new RegExp(`connect-src ${base}(;|$)`));
    assert.match(csp, /sandbox allow-scripts allow-same-origin/);
    assert.match(csp, /webrtc 'block'/);
    assert.match(csp, new RegExp(`frame-ancestors ${new URL(web.url).origin}`));
    assert.match(home.headers.get('permissions-policy') ?? '', /camera=\(\), microphone=\(\)/);
    assert.equal(home.headers.get('service-worker-allowed'), null);
    const css = await localhostFetch(`${base}css/site.css`);
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.doesNotMatch(await css.text(), /postMessage/);
    assert.equal((await localhostFetch(`${base}logo.png`)).headers.get('content-type'), 'image/png');
  });

  it('refuses service-worker scripts and top-level tabs', async () => {
    const base = archiveBase(web.viewerBase, job.id);
    const sw = await localhostFetch(`${base}index.html`, { headers: { 'Service-Worker': 'script' } });
    assert.equal(sw.status, 403);
    assert.doesNotMatch(await sw.text(), /Home/);
    const tab = await localhostFetch(`${base}index.html`, { headers: { 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate' } });
    assert.equal(tab.status, 403);
    assert.match(await tab.text(), /only inside Harvest's viewer/);
  });

  it("tells the viewer where its frame is only from the token of a frame's own document", async () => {
    const base = archiveBase(web.viewerBase, job.id);
    const framed = await (await localhostFetch(`${base}index.html`, { headers: { 'Sec-Fetch-Dest': 'iframe', 'Sec-Fetch-Mode': 'navigate' } })).text();
    const token = /token:'([A-Za-z0-9_-]+)'/.exec(framed)?.[1];
    assert.ok(token, framed);
    // What a page's own fetch gets carries no token, so it can't borrow another page's.
    assert.doesNotMatch(await (await localhostFetch(`${base}index.html`, { headers: { 'Sec-Fetch-Dest': 'empty' } })).text(), /token:/);
    const other = await api<JobSummary>('jobs.duplicate', { id: job.id });
    assert.ok(other.ok);
    assert.deepEqual(await api('archives.frameLocation', { id: other.value.id, token }), { ok: true, value: { localPath: null } }, "another job's frame");
    assert.deepEqual(await api('archives.frameLocation', { id: job.id, token: 'forged' }), { ok: true, value: { localPath: null } });
    assert.deepEqual(await api('archives.frameLocation', { id: job.id }), { ok: true, value: { localPath: null } });
    assert.deepEqual(await api('archives.frameLocation', { id: job.id, token }), { ok: true, value: { localPath: 'index.html' } });
    assert.deepEqual(await api('archives.frameLocation', { id: job.id, token }), { ok: true, value: { localPath: null } }, 'once only');
  });

  it("serves the archive's thumbnails on its own origin, to the app's site, and nothing else under their route", async () => {
    const thumbs = path.join(job.archiveDir, 'thumbnails', '127.0.0.1_9');
    mkdirSync(thumbs, { recursive: true });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    writeFileSync(path.join(thumbs, 'index.html.png'), png);
    writeFileSync(path.join(thumbs, 'index.html.full.png'), png);
    writeFileSync(path.join(thumbs, 'notes.txt'), 'not a picture');
    const base = archiveBase(web.viewerBase, job.id);
    const thumb = await localhostFetch(`${base}.thumbnails/127.0.0.1_9/index.html.png`);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await thumb.arrayBuffer()), png);
    // The app is another site: any origin may show the picture (test/e2e/thumbnails.spec.ts).
    assert.equal(thumb.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(thumb.headers.get('content-security-policy'), "default-src 'none'");
    assert.equal((await localhostFetch(`${base}index.html`)).headers.get('cross-origin-resource-policy'), 'same-origin', 'archived files stay same-origin');
    assert.equal((await localhostFetch(`${base}.thumbnails/127.0.0.1_9/index.html.full.png`)).status, 404, 'screenshots are not served');
    assert.equal((await localhostFetch(`${base}.thumbnails/127.0.0.1_9/notes.txt`)).status, 404);
    assert.equal((await localhostFetch(`${base}.thumbnails/%2e%2e/mirror/logo.png`)).status, 404);
    assert.equal((await localhostFetch(`${base}.thumbnails/..%2Fcatalogue.sqlite.png`)).status, 404);
    // The app's own policy lets it load images from the archive origins.
    assert.match((await fetch(web.url)).headers.get('content-security-policy') ?? '', new RegExp(`img-src 'self' data: blob: http://\\*\\.localhost:${web.viewerPort}`));
  });

  it('refuses paths out of the mirror, symlinks out of it, other tokens, unknown jobs and other host names', async () => {
    const base = archiveBase(web.viewerBase, job.id);
    for (const p of ['%2e%2e/catalogue.sqlite', 'css%2F..%2F..%2Fcatalogue.sqlite', 'link.txt', 'missing.html']) {
      assert.equal((await localhostFetch(`${base}${p}`)).status, 404, p);
    }
    const origin = new URL(base).origin;
    assert.equal((await localhostFetch(`${origin}/${'y'.repeat(32)}/index.html`)).status, 404);
    assert.equal((await localhostFetch(`${archiveBase(web.viewerBase, 'no-such-job')}index.html`)).status, 404);
    assert.equal((await localhostFetch(`${base}index.html`, { method: 'POST' })).status, 405);
    assert.equal(await rawGet(`${base}index.html`, {}), 200);
    // DNS rebinding: a page on another name sends its own name. Nor is the bare address an archive.
    for (const host of ['evil.example', `evil.example:${web.viewerPort}`, `127.0.0.1:${web.viewerPort}`, `localhost:${web.viewerPort}`, `${job.id}.localhost:1`, `${job.id}.evil.localhost:${web.viewerPort}`]) {
      assert.equal(await rawGet(`${base}index.html`, { Host: host }), 403, host);
    }
  });
});

describe('harvest serve before the renderer is built', () => {
  it('answers the app page with a clear 404', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'harvest-web-'));
    const web = await startWebHost({ dataDir: path.join(work, 'data'), rendererDir: path.join(work, 'none') });
    try {
      const res = await fetch(web.url);
      assert.equal(res.status, 404);
      assert.match(await res.text(), /not built: run 'npm run build'/);
    } finally {
      await web.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
