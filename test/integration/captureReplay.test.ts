import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capturePath } from '../../shared/capturePath.js';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary, PageRow, Paged } from '../../shared/appViews.js';
import { captureReplayOf } from '../../electron/host/captureReplay.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { startMirrorServer, viewerCsp, type MirrorServer } from '../../electron/host/mirrorServer.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { localhostFetch } from '../helpers/localhostFetch.js';
import { archiveBase } from '../../shared/frameLocation.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const APP_ORIGIN = 'http://127.0.0.1:1';
const page = (words: string, extra: string) =>
  `<!doctype html><html><head><title>Home</title><link rel="stylesheet" href="/s.css"></head><body><p>${words}</p>${extra}<img src="/i.png"></body></html>`;

describe('earlier captures served by the archive host', () => {
  let work: string;
  let host: EngineHost | null = null;
  let mirror: MirrorServer | null = null;
  const files: Record<string, [string, string]> = {
    '/': ['text/html', page('First words.', '<a href="/b">B</a> <a href="/c">C</a>')],
    '/b': ['text/html', '<!doctype html><html><body><p>Page B</p><a href="/">home</a></body></html>'],
    '/c': ['text/html', '<!doctype html><html><body><p>Page C</p></body></html>'],
    '/s.css': ['text/css', 'body { color: red }'],
    '/i.png': ['image/png', 'image bytes, the same in both captures'],
  };
  const server = createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end('gone');
    res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
  });

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-capture-replay-'));
  });

  after(async () => {
    await mirror?.close();
    await host?.shutdown();
    server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows a page as each capture had it, with that capture’s resources, nearest capture for the rest', async () => {
    const origin = await listenOnLoopback(server);
    const archive = path.join(work, 'archive');
    const first = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(first.status, 0, first.stderr);
    // The second capture: new text and style, a new image; /b no longer linked, /c answering 404.
    files['/'] = ['text/html', page('Second words.', '<a href="/c">C</a><img src="/n.png">')];
    files['/s.css'] = ['text/css', 'body { color: blue }'];
    files['/n.png'] = ['image/png', 'a new image'];
    delete files['/b'];
    delete files['/c'];
    const second = await runHarvest(['recrawl', archive, '--quiet']);
    assert.equal(second.status, 0, second.stderr);
    const at = new Map(listRecords(archive).map((r) => [new URL(r.url).pathname, r.localPath!]));

    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS } });
    const job = value<JobSummary>(await host.handle('archives.open', { archiveDir: archive }));
    const engine = host;
    mirror = await startMirrorServer((id) => (id === job.id ? archive : null), () => APP_ORIGIN, captureReplayOf(() => engine.jobs));
    const get = async (viewerPath: string, headers: Record<string, string> = {}) => {
      const res = await localhostFetch(`${archiveBase(mirror!.viewerBase, job.id)}${viewerPath}`, { headers });
      return { res, text: await res.text() };
    };

    const home1 = await get(capturePath(1, at.get('/')!));
    assert.equal(home1.res.status, 200);
    assert.match(home1.text, /First words\./);
    assert.match(home1.res.headers.get('content-type') ?? '', /^text\/html/);
    const jobBase = new URL(home1.res.url).origin + new URL(home1.res.url).pathname.split('/').slice(0, 2).join('/') + '/';
    assert.equal(home1.res.headers.get('content-security-policy'), viewerCsp(jobBase, APP_ORIGIN), 'the mirror’s policy');
    // Its stylesheet reference is relative, so it stays in capture 1.
    const css = /href="([^"]*s\.css)"/.exec(home1.text)?.[1];
    assert.ok(css && !css.startsWith('http'), `a relative stylesheet reference: ${css}`);
    const css1 = await localhostFetch(new URL(css, home1.res.url));
    assert.equal(await css1.text(), 'body { color: red }');
    assert.equal(new URL(css1.url).pathname.includes('/@capture/1/'), true);

    const home2 = await get(capturePath(2, at.get('/')!));
    assert.match(home2.text, /Second words\./);
    assert.equal(await (await localhostFetch(new URL(/href="([^"]*s\.css)"/.exec(home2.text)![1]!, home2.res.url))).text(), 'body { color: blue }');
    // The mirror itself is the latest capture.
    assert.match((await get(at.get('/')!)).text, /Second words\./);

    // Gone in capture 2: its nearest capture, the first. New in capture 2: shown for capture 1 too.
    assert.match((await get(capturePath(2, at.get('/b')!))).text, /Page B/);
    const newImage = await get(capturePath(1, at.get('/n.png')!));
    assert.equal(newImage.text, 'a new image');
    assert.equal(newImage.res.headers.get('content-type'), 'image/png');
    assert.equal((await get(capturePath(1, 'no/such/file.html'))).res.status, 404);

    // The page list keeps the page gone from the site, marked removed.
    const pages = value<Paged<PageRow>>(await engine.handle('archives.pages', { id: job.id, offset: 0, limit: 50 }));
    assert.deepEqual(
      pages.rows.map((p) => [new URL(p.url).pathname, p.removed]),
      [['/', false], ['/b', true], ['/c', true]],
    );
    // They open in the viewer as the pages they were, with their timelines.
    for (const p of ['/b', '/c']) {
      const lookup = value<PageRow | null>(await engine.handle('archives.lookup', { id: job.id, localPath: at.get(p)! }));
      assert.equal(lookup?.url, `${origin}${p}`);
    }

    // A framed document's token names the capture it shows, for the viewer's address bar.
    const framed = await get(capturePath(1, at.get('/')!), { 'Sec-Fetch-Dest': 'iframe' });
    const token = /token:'([A-Za-z0-9_-]+)'/.exec(framed.text)?.[1];
    assert.ok(token);
    assert.equal(mirror.frameLocation(job.id, token), capturePath(1, at.get('/')!));
  });
});
