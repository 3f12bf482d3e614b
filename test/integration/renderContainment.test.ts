import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UrlRecord } from '../../shared/crawl.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { PROBE_SOURCES, rtcProbePage, startRtcListeners, type RtcListeners } from '../helpers/rtcProbe.js';

const CHROMIUM = '/usr/bin/chromium';
/** How long the site holds /hold and /hog-hold at most (the probe normally releases /hold sooner). */
const HOLD_MS = 15_000;

const page = (res: ServerResponse, body: string) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);

/**
 * A page that opens popups every way a page can (window.open, a link and a form with a target), a
 * page whose renderer outgrows the memory cap with typed arrays (1.3 GB, over the default 512 + 256
 * MB), the WebRTC probe, and a plain page after them.
 */
function startSite(l: RtcListeners): Server {
  let gathered = () => {};
  const released = () => new Promise<void>((resolve) => (gathered = resolve));
  let hold = released();
  return createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/') page(res, '<a href="/rtc">rtc</a> <a href="/popups">popups</a> <a href="/hog">hog</a> <a href="/after">after</a>');
    else if (url === '/rtc') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(rtcProbePage(l));
    else if (url === '/gathered') {
      gathered();
      hold = released();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else if (url === '/hold' || url === '/hog-hold') {
      const wait = url === '/hold' ? hold : new Promise<void>(() => {});
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), HOLD_MS);
      void wait.then(() => {
        clearTimeout(timer);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    } else if (url === '/popups')
      page(
        res,
        // The link is made and removed by the script: a link left in the page would be crawled as one.
        `<form id="f" action="/popup-form" target="_blank"></form><p id="opened">?</p>
        <script>
          const w = window.open('/popup-open');
          document.getElementById('opened').textContent = w === null ? 'no window' : 'a window';
          const a = document.createElement('a');
          a.href = '/popup-link';
          a.target = '_blank';
          document.body.append(a);
          a.click();
          a.remove();
          document.getElementById('f').submit();
        </script>`,
      );
    else if (url.startsWith('/popup-')) page(res, '<img src="/popup-img.png" alt="">');
    else if (url === '/hog')
      // All at once while the page loads, then a tall page to scroll: the offline copy (whose
      // /hog-hold is refused at once) still holds the memory for a second or more of rendering.
      page(res, `<script>fetch('/hog-hold'); const keep = []; for (let i = 0; i < 40; i++) keep.push(new Uint8Array(32e6).fill(1));</script><div style="height:20000px"></div>`);
    else if (url === '/after') page(res, '<p>after the hog</p>');
    else res.writeHead(404).end();
  });
}

describe("what a rendered page can't do", { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let listeners: RtcListeners;
  let site: Server;
  let origin: string;
  let tmp: string;

  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'harvest-contain-'));
    listeners = await startRtcListeners();
    site = startSite(listeners);
    origin = await listenOnLoopback(site);
  });

  after(async () => {
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
    await listeners?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const find = (records: UrlRecord[], p: string) => records.find((r) => r.url === `${origin}${p}`);

  it('crawl --render: no WebRTC, no popup, and a page over the memory cap recorded failed while the crawl goes on', async () => {
    const out = path.join(tmp, 'rendered');
    const run = await runHarvest(['crawl', `${origin}/`, '--out', out, '--quiet', '--render', '--browser-path', CHROMIUM], { timeoutMs: 240_000 });
    assert.equal(run.status, 0, run.stderr);
    const records = listRecords(out);
    const hog = find(records, '/hog');
    assert.equal(hog?.state, 'failed');
    assert.match(hog?.error ?? '', /^out of memory: the page's renderer process reached \d+ MB, over the 768 MB cap/);
    assert.equal(find(records, '/after')?.state, 'archived', 'the crawl went on');
    assert.equal(find(records, '/popups')?.state, 'archived');
    const popupUrls = records.filter((r) => r.url.startsWith(`${origin}/popup-`)).map((r) => r.url);
    assert.deepEqual(popupUrls, [], 'nothing a popup asked for is recorded');
    const rtc = find(records, '/rtc');
    assert.ok(rtc?.localPath, 'the probe page was saved');
    const report = /<pre id="rtc">([^<]*)<\/pre>/.exec(readFileSync(path.join(out, 'mirror', rtc.localPath), 'utf8'))?.[1] ?? '';
    assert.deepEqual(
      report.split('\n').slice(0, PROBE_SOURCES.length),
      PROBE_SOURCES.map((s) => `${s}: ${s === 'popup' ? 'no window' : 'none'}`),
      report,
    );
    assert.deepEqual({ udp: listeners.udpPackets, tcp: listeners.tcpConnections }, { udp: 0, tcp: 0 }, 'nothing reached the STUN/TURN listeners');
  });

  it('harvest thumbnails: the offline copies run the same scripts, and nothing gets out', async () => {
    const out = path.join(tmp, 'static');
    const crawled = await runHarvest(['crawl', `${origin}/`, '--out', out, '--quiet'], { timeoutMs: 120_000 });
    assert.equal(crawled.status, 0, crawled.stderr);
    const udp0 = listeners.udpPackets;
    const tcp0 = listeners.tcpConnections;
    const run = await runHarvest(['thumbnails', out, '--quiet', '--browser-path', CHROMIUM], { timeoutMs: 240_000 });
    // The hog's offline copy still runs its script: its thumbnail fails for its memory, the others are made.
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`failed: ${origin}/hog: out of memory`));
    const pages = listRecords(out).filter((r) => r.state === 'archived' && /^text\/html/.test(r.contentType ?? '')).length;
    assert.match(run.stderr, new RegExp(`thumbnails: ${pages - 1} made, 0 already there, 1 failed`));
    assert.deepEqual({ udp: listeners.udpPackets - udp0, tcp: listeners.tcpConnections - tcp0 }, { udp: 0, tcp: 0 }, 'nothing reached the STUN/TURN listeners');
  });
});
