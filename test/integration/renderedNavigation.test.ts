import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const CHROMIUM = '/usr/bin/chromium';

/** Pages reached only by a client-side redirect or a history route, each from its own kind of page. */
const PAGES: Record<string, { head?: string; body: string }> = {
  '/': { body: '<a href="/go-head">head</a> <a href="/go-later">later</a> <a href="/app">app</a>' },
  '/go-head': { head: `<script>location.replace('/landing-head');</script>`, body: '<p>never parsed</p>' },
  '/go-later': { body: `<p>moving shortly</p><script>setTimeout(() => location.replace('/landing-later'), 500);</script>` },
  '/app': { body: `<p id="view">home</p><script>history.pushState({}, '', '/app/route-b'); document.getElementById('view').textContent = 'route b';</script>` },
  '/app/route-b': { body: '<p>route b, served by the site too</p>' },
  '/landing-head': { body: '<p>landed from the head</p>' },
  '/landing-later': { body: '<p>landed a moment later</p>' },
};

describe('a --render crawl follows client-side redirects and routes', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let site: Server;
  let origin: string;
  let tmp: string;

  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'harvest-nav-'));
    site = createServer((req, res) => {
      const p = PAGES[req.url ?? ''];
      if (p === undefined) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><head><title>t</title>${p.head ?? ''}</head><body>${p.body}</body></html>`);
    });
    origin = await listenOnLoopback(site);
  });

  after(async () => {
    await new Promise((resolve) => site?.close(resolve));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('archives what location.replace() (in the head or a moment later) and history.pushState lead to', async () => {
    const out = path.join(tmp, 'archive');
    const run = await runHarvest(['crawl', `${origin}/`, '--out', out, '--quiet', '--render', '--browser-path', CHROMIUM], { timeoutMs: 180_000 });
    assert.equal(run.status, 0, run.stderr);
    const records = listRecords(out);
    const state = (p: string) => records.find((r) => r.url === `${origin}${p}`);
    // Nothing links the landing pages or the route: only the render finds them.
    for (const p of Object.keys(PAGES)) assert.equal(state(p)?.state, 'archived', `${p}: ${JSON.stringify(state(p))}`);
    const head = state('/go-head')!;
    assert.match(readFileSync(path.join(out, 'mirror', head.localPath!), 'utf8'), /<meta http-equiv="refresh" content="0; url=[^"]*landing-head/);
  });
});
