import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { CHROMIUM, launchChromium, replayFrame, startViewerServer } from '../helpers/replayViewer.js';
import { scanGzipMembers } from '../../electron/engine/warc/gzipMembers.js';
import { assertTilesFile, payloadOf, readRaw, sha256Base32 } from '../helpers/warcReadBack.js';
import { extractZip } from '../helpers/zipReadBack.js';

/** What the checks below use of the replayed page's DOM (the project builds without DOM types). */
interface ReplayedImage {
  complete: boolean;
  naturalWidth: number;
  src: string;
}
declare const document: { images: ArrayLike<ReplayedImage> };

/** A solid w×h RGB PNG: each image of the site has its own size, so a wrong one is seen. */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3, 0x80)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const page = (title: string, words: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><p id="words">${words}</p>${body}</body></html>`;

/**
 * A small site crawled three times. `/a.html` changes every capture; `/b.html` has no validators
 * (an identical-payload revisit when unchanged); `/c.html` and the PNG images answer 304 to their
 * validators (server-not-modified revisits), `/icon.svg` would but is never asked conditionally; `/gone.html` is removed in capture 3; `/logo.png` is
 * captured with the home page, before `/b.html`, which shows it too.
 */
function site(capture: () => number): Server {
  const files = (): Record<string, { type: string; body: string | Buffer; etag?: string }> => {
    const v = capture();
    const links = ['a.html', 'b.html', 'c.html', ...(v < 3 ? ['gone.html'] : [])].map((l) => `<a href="/${l}">${l}</a>`).join(' ');
    return {
      '/': { type: 'text/html', body: page('Home', 'Home page.', `<img src="/logo.png"> ${links}`) },
      '/a.html': { type: 'text/html', body: page('A', `Alpha ${v}.`, '<img src="/pic-a.png">') },
      '/b.html': { type: 'text/html', body: page('B', 'Bravo stays.', '<img src="/logo.png">') },
      '/c.html': { type: 'text/html', body: page('C', 'Charlie stays.', '<img src="/pic-c.png"> <img src="/icon.svg">'), etag: '"c1"' },
      ...(v < 3 && { '/gone.html': { type: 'text/html', body: page('Gone', 'Gone soon.', '<img src="/pic-a.png">') } }),
      '/logo.png': { type: 'image/png', body: png(7, 5), etag: '"logo1"' },
      '/pic-a.png': { type: 'image/png', body: png(11, 3), etag: '"a1"' },
      '/pic-c.png': { type: 'image/png', body: png(13, 2), etag: '"cpic1"' },
      // A browser never sniffs SVG: served without its Content-Type (a 304's headers), it shows broken.
      '/icon.svg': { type: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="4"><rect width="9" height="4"/></svg>', etag: '"svg1"' },
    };
  };
  return createServer((req, res) => {
    const f = files()[new URL(req.url ?? '/', 'http://x').pathname];
    if (!f) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    if (f.etag && req.headers['if-none-match'] === f.etag) return void res.writeHead(304, { etag: f.etag }).end();
    res.writeHead(200, { 'content-type': f.type, ...(f.etag && { etag: f.etag }) }).end(f.body);
  });
}

interface PageLine {
  url: string;
  ts: string;
}

function pagesOf(dir: string): PageLine[] {
  return readFileSync(path.join(dir, 'pages', 'pages.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => JSON.parse(l) as PageLine);
}

function cdxOf(dir: string): { timestamp: string; url: string; status: string; mime: string }[] {
  return readFileSync(path.join(dir, 'indexes', 'index.cdx'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ timestamp: l.split(' ')[1]!, ...(JSON.parse(l.slice(l.indexOf('{'))) as { url: string; status: string; mime: string }) }));
}

const fourteen = (iso: string) => iso.replace(/[-:T]/g, '').slice(0, 14);

describe('every capture of a re-crawled site in ReplayWeb.page', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let work: string;
  let browser: Browser | null = null;
  const servers: { close(): unknown }[] = [];
  const dirs = new Map<string, string>();
  let origin = '';

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-rwp-three-'));
    let capture = 1;
    const live = site(() => capture);
    servers.push(live);
    origin = await listenOnLoopback(live);
    const archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    for (capture = 2; capture <= 3; capture++) {
      // WARC-Date has whole seconds: the captures must not share one.
      await new Promise((r) => setTimeout(r, 1100));
      const again = await runHarvest(['recrawl', archive, '--quiet']);
      assert.equal(again.status, 0, again.stderr);
    }
    live.close();
    for (const [name, extra] of [['all', []], ['c1', ['--capture', '1']], ['c2', ['--capture', '2']], ['c3', ['--capture', '3']]] as const) {
      const wacz = path.join(work, `${name}.wacz`);
      const run = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet', ...extra]);
      assert.equal(run.status, 0, run.stderr);
      const dir = path.join(work, name);
      await extractZip(wacz, dir);
      dirs.set(name, dir);
    }
    for (const [name, extra] of [['all', []], ['c2', ['--capture', '2']]] as const) {
      const run = await runHarvest(['export', archive, '--format', 'warc', '--out', path.join(work, `${name}.warc.gz`), '--quiet', ...extra]);
      assert.equal(run.status, 0, run.stderr);
    }
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const s of servers) s.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('indexes a 304 revisit with the status of the response it revisits, and dates pages as their records', () => {
    const all = cdxOf(dirs.get('all')!);
    const revisits = all.filter((l) => l.mime === 'warc/revisit');
    assert.ok(revisits.some((l) => l.url === `${origin}/c.html`), 'c.html was revisited (304)');
    assert.ok(revisits.some((l) => l.url === `${origin}/b.html`), 'b.html was revisited (identical payload)');
    assert.deepEqual(revisits.filter((l) => l.status.startsWith('3')), [], 'no revisit line carries a 3xx status');
    for (const name of ['all', 'c1', 'c2', 'c3']) {
      const stamps = new Set(cdxOf(dirs.get(name)!).map((l) => `${l.timestamp} ${l.url}`));
      for (const p of pagesOf(dirs.get(name)!)) assert.ok(stamps.has(`${fourteen(p.ts)} ${p.url}`), `${name}: page ${p.url} at ${p.ts} is a record's time`);
    }
  });

  it('makes each --capture N package stand alone: every record it names is in it', async () => {
    for (const n of [1, 2, 3]) {
      const dir = dirs.get(`c${n}`)!;
      const ids = new Set<string>();
      const refs: string[] = [];
      for (const f of readdirSync(path.join(dir, 'archive'))) {
        for (const r of await readRaw(path.join(dir, 'archive', f))) {
          ids.add(r.header('WARC-Record-ID')!);
          for (const h of ['WARC-Warcinfo-ID', 'WARC-Refers-To', 'WARC-Concurrent-To']) {
            const v = r.header(h);
            if (v !== null) refs.push(...v.split(/,\s*/));
          }
        }
      }
      assert.deepEqual(refs.filter((id) => !ids.has(id)), [], `capture ${n}: references to records outside the package`);
      const pkg = JSON.parse(readFileSync(path.join(dir, 'datapackage.json'), 'utf8')) as { mainPageUrl: string; mainPageDate: string; resources: { path: string }[] };
      const pages = pagesOf(dir);
      assert.equal(pages.length, n < 3 ? 5 : 4, `capture ${n}'s pages`);
      assert.ok(pages.some((p) => p.url === pkg.mainPageUrl && p.ts === pkg.mainPageDate), `capture ${n}: the main page is one of its pages`);
      const inZip = new Set(readdirSync(path.join(dir, 'archive')).map((f) => `archive/${f}`));
      assert.deepEqual(pkg.resources.map((r) => r.path).filter((p) => p.startsWith('archive/')).sort(), [...inZip].sort());
    }
  });

  it('exports WARC and WACZ files that warcio.js reads whole: every record parsed, its digests right, nothing cut short', async () => {
    const files = [
      path.join(work, 'all.warc.gz'),
      path.join(work, 'c2.warc.gz'),
      ...['all', 'c1', 'c2', 'c3'].flatMap((name) => readdirSync(path.join(dirs.get(name)!, 'archive')).map((f) => path.join(dirs.get(name)!, 'archive', f))),
    ];
    let checked = 0;
    for (const file of files) {
      const records = await readRaw(file);
      // warcio skips a torn last record silently: its records must tile the file, member for member.
      assertTilesFile(records, file);
      const members: number[] = [];
      const fh = await open(file, 'r');
      try {
        const scan = await scanGzipMembers(fh, (m) => void members.push(m.offset));
        assert.equal(scan.end, statSync(file).size, `${file}: gzip members to its end`);
      } finally {
        await fh.close();
      }
      assert.deepEqual(records.map((r) => r.offset), members, `${file}: one record per gzip member`);
      for (const r of records) {
        assert.equal(r.block.length, Number(r.header('Content-Length')), `${file} at ${r.offset}: Content-Length`);
        if (r.type !== 'warcinfo') assert.equal(r.header('WARC-Block-Digest'), sha256Base32(r.block), `${file} at ${r.offset}: block digest`);
        if (r.type === 'response') assert.equal(r.header('WARC-Payload-Digest'), sha256Base32(payloadOf(r.block)), `${file} at ${r.offset}: payload digest`);
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} records checked`);
  });

  it('replays every page of every capture, from the all-captures WACZ and from each --capture N, with its text and images', async () => {
    // Which capture each page line is, from the per-capture packages.
    const captureOf = new Map<string, number>();
    for (const n of [1, 2, 3]) for (const p of pagesOf(dirs.get(`c${n}`)!)) captureOf.set(`${p.ts} ${p.url}`, n);
    const words = (url: string, n: number): string =>
      ({ '/': 'Home page.', '/a.html': `Alpha ${n}.`, '/b.html': 'Bravo stays.', '/c.html': 'Charlie stays.', '/gone.html': 'Gone soon.' })[new URL(url).pathname]!;
    const failed: string[] = [];
    let passed = 0;
    for (const name of ['all', 'c1', 'c2', 'c3']) {
      const pages = pagesOf(dirs.get(name)!);
      assert.equal(pages.length, name === 'all' ? 14 : name === 'c3' ? 4 : 5, `${name}: pages listed`);
      const viewer = await startViewerServer(path.join(work, `${name}.wacz`), pages[0]!.url);
      servers.push(viewer.server);
      for (const p of pages) {
        const n = captureOf.get(`${p.ts} ${p.url}`);
        assert.ok(n !== undefined, `${name}: ${p.url} at ${p.ts} is a page of one capture`);
        // A context of its own per page: ReplayWeb.page's app keeps the first page it showed.
        const context = await browser!.newContext();
        try {
          const frame = await replayFrame(context, viewer.origin, p.url, { ts: fourteen(p.ts), timeoutMs: 20_000 });
          const text = (await frame.textContent('#words', { timeout: 15_000 }))?.trim();
          await frame.waitForFunction(() => Array.from(document.images).every((i) => i.complete), undefined, { timeout: 15_000 });
          const broken = await frame.evaluate(() => Array.from(document.images).filter((i) => i.naturalWidth === 0).map((i) => i.src));
          if (text !== words(p.url, n) || broken.length > 0) failed.push(`${name} capture ${n} ${p.url}: text ${JSON.stringify(text)}, broken images ${broken.join(' ')}`);
          else passed++;
        } catch (e) {
          failed.push(`${name} capture ${n} ${p.url}: ${(e as Error).message.split('\n')[0]!.slice(0, 120)}`);
        } finally {
          await context.close();
        }
      }
    }
    assert.deepEqual(failed, [], `${passed} passed`);
    assert.equal(passed, 28);
  });
});
