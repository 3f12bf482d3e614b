import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary, ScriptsSetting } from '../../shared/appViews.js';
import { archiveBase } from '../../shared/frameLocation.js';
import { startWebHost, type WebHost } from '../../electron/host/webHost.js';
import { VIEWER_SCRIPTS_FILE } from '../../electron/host/viewerScripts.js';
import { localhostFetch } from '../helpers/localhostFetch.js';

/** A port free a moment ago, to pin the viewer on. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** As many cookies as Chromium keeps for one host (180), each near its 4 kB limit: ~720 kB of Cookie header. */
const COOKIE_BOMB = Array.from({ length: 180 }, (_, i) => `c${i}=${'x'.repeat(4000)}`).join('; ');

describe('harvest serve: archives on host names of their own, on one viewer port', () => {
  let work: string;
  let web: WebHost;
  let job: JobSummary;
  let viewerPort: number;

  const api = async <T>(command: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const res = await fetch(`${web.url}api/${command}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, `${command} answered ${res.status}`);
    return (await res.json()) as Reply<T>;
  };

  const start = async () => {
    const renderer = path.join(work, 'renderer');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Harvest</title>');
    web = await startWebHost({ dataDir: path.join(work, 'data'), rendererDir: renderer, viewerPort });
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-web-hosts-'));
    viewerPort = await freePort();
    await start();
    const r = await api<JobSummary>('jobs.create', { job: { name: 'Hosts', seeds: ['http://127.0.0.1:9/'] } });
    assert.ok(r.ok);
    job = r.value;
    const mirror = path.join(job.archiveDir, 'mirror');
    mkdirSync(mirror, { recursive: true });
    writeFileSync(path.join(mirror, 'index.html'), '<!doctype html><head><title>Home</title><script>document.title = "ran"</script></head>');
  });

  after(async () => {
    await web?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('serves every archive on the pinned viewer port, each under its own host name', async () => {
    assert.equal(web.viewerPort, viewerPort);
    const base = new URL(archiveBase(web.viewerBase, job.id));
    assert.equal(base.host, `${job.id}.localhost:${viewerPort}`);
    assert.equal((await localhostFetch(base)).status, 200);
  });

  it('answers the API and the archives whatever cookies the browser sends (no 431)', async () => {
    const info = await api('app.info', {}, { Cookie: COOKIE_BOMB });
    assert.ok(info.ok);
    const page = await localhostFetch(archiveBase(web.viewerBase, job.id), { headers: { Cookie: COOKIE_BOMB } });
    assert.equal(page.status, 200);
  });

  it("keeps an archive's own scripts off until the archivist turns them on, and remembers that", async () => {
    const base = archiveBase(web.viewerBase, job.id);
    assert.deepEqual(await api<ScriptsSetting>('archives.scripts', { id: job.id }), { ok: true, value: { allowed: false, switchable: true } });
    const off = await localhostFetch(base, { headers: { 'Sec-Fetch-Dest': 'iframe' } });
    const csp = off.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'(;|$)/.exec(csp)?.[1];
    assert.ok(nonce, `script-src is a nonce alone: ${csp}`);
    assert.doesNotMatch(csp, /unsafe-inline'?;[^;]*$|script-src[^;]*unsafe/);
    assert.match(csp, new RegExp(`frame-src ${base}(;|$)`), 'no data: or blob: frames, which might not inherit the policy');
    assert.match(csp, /worker-src 'none'/);
    assert.match(csp, /object-src 'none'/);
    const html = await off.text();
    // The viewer's script alone carries the nonce; the page's own script does not run.
    assert.equal(html.split(`nonce="${nonce}"`).length, 2, html);
    assert.match(html, /<script>document\.title = "ran"<\/script>/);
    const again = (await localhostFetch(base)).headers.get('content-security-policy') ?? '';
    assert.notEqual(/nonce-([A-Za-z0-9_-]+)/.exec(again)?.[1], nonce, 'a nonce per response');

    assert.deepEqual(await api<ScriptsSetting>('archives.setScripts', { id: job.id, allowed: true }), { ok: true, value: { allowed: true, switchable: true } });
    const on = (await localhostFetch(base)).headers.get('content-security-policy') ?? '';
    assert.match(on, /script-src [^;]*'unsafe-inline'/);
    assert.doesNotMatch(on, /nonce-/);
    assert.deepEqual(JSON.parse(readFileSync(path.join(work, 'data', VIEWER_SCRIPTS_FILE), 'utf8')).allowed, [job.id]);

    // A new `harvest serve` on the same data folder keeps the choice.
    await web.close();
    await start();
    assert.deepEqual(await api<ScriptsSetting>('archives.scripts', { id: job.id }), { ok: true, value: { allowed: true, switchable: true } });
    await api('archives.setScripts', { id: job.id, allowed: false });
    assert.match((await localhostFetch(archiveBase(web.viewerBase, job.id))).headers.get('content-security-policy') ?? '', /script-src 'nonce-/);

    // Deleting a job forgets its choice.
    const other = await api<JobSummary>('jobs.duplicate', { id: job.id });
    assert.ok(other.ok);
    await api('archives.setScripts', { id: other.value.id, allowed: true });
    assert.ok((await api('jobs.delete', { id: other.value.id, deleteArchive: true })).ok);
    assert.deepEqual(JSON.parse(readFileSync(path.join(work, 'data', VIEWER_SCRIPTS_FILE), 'utf8')).allowed, []);
  });
});
