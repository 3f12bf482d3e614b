/**
 * A crawl of a small hostile website: redirect loops and chains, a server that drips bytes forever,
 * oversized and compression-bomb bodies, connection resets, rate limiting, malformed markup and a
 * lying charset header. The crawl must finish, record what became of each URL and why, and still
 * save the ordinary pages as a browsable copy.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { CrawlStats, UrlRecord } from '../../shared/crawl.js';
import { listRecords, readArchiveStats, runHarvest, type HarvestRun } from '../helpers/harvestCli.js';

const DEADLINE_MS = 2000;
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const DRIP_INTERVAL_MS = 200;
/** Wire size of the oversized bodies: comfortably over the cap. */
const OVERSIZED_BYTES = 8 * 1024 * 1024;
const BOMB_DECODED_BYTES = 50 * 1024 * 1024;
const RESET_BODY_BYTES = 64 * 1024;
const NESTING_DEPTH = 50_000;
/** Text the lying-charset page holds, in UTF-8 after a byte order mark. */
const BOM_TEXT = 'Grüße aus Köln — naïve café, 10 €, 東京の図書館';

/**
 * How much more memory the hostile crawl may take than a one-page control crawl. A bomb inflated in
 * memory before the size check would alone add its decoded size (more with chunk concatenation);
 * the capped crawl measured about 20-25 MiB over the control (the 5 MB caps, the deep page).
 */
const RSS_GROWTH_LIMIT_KIB = BOMB_DECODED_BYTES / 1024;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n</head>\n<body>\n<h1>${title}</h1>\n${body}\n</body>\n</html>\n`;
}

/** Links on the home page, by anchor text, so the saved copy's hrefs can be found again. */
const HOME_LINKS: Record<string, string> = {
  'normal page': '/normal.html',
  'loop start': '/loop-a',
  'chain start': '/chain-1',
  'slow drip': '/drip',
  'declared too large': '/big-declared',
  'chunked too large': '/big-chunked',
  'compression bomb': '/bomb',
  'reset mid-body': '/reset',
  'rate limited': '/busy',
  'malformed markup': '/malformed.html',
  'lying charset': '/bom.html',
};

const HOME = page(
  'Hostile test site',
  '<ul>\n' +
    Object.entries(HOME_LINKS)
      .map(([text, href]) => `<li><a href="${href}">${text}</a></li>`)
      .join('\n') +
    '\n</ul>',
);

/**
 * Malformed on purpose: unclosed elements, stray '<', unquoted and duplicated attributes, 50,000
 * nested <div>s, a link before and after the nesting, and a last tag cut off mid-attribute.
 */
const MALFORMED =
  '<html><head><title>Malformed page</title>\n' +
  '<body><p>Unclosed paragraph <b>bold <i>italic\n' +
  '<p>Stray less-than: a < b, 3 <4, << and <> and </ >.\n' +
  '<a href=/malformed-child.html class=plain title=unquoted href=/ignored-duplicate.html>child link</a>\n' +
  '<div id=x data-x=<notatag>>odd attribute</div>\n' +
  '<table><tr><td>cell<td>another cell</table></table></tr>\n' +
  '<' +
  '<div>'.repeat(NESTING_DEPTH) +
  'deep text' +
  '<a href="/after-nesting.html">after the nesting</a>\n' +
  '<span class="trunc';

const BOM_PAGE = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from(
    '<!DOCTYPE html>\n<html><head><meta charset="iso-8859-1"><title>Byte order mark</title></head>\n' +
      `<body><p id="text">${BOM_TEXT}</p></body></html>\n`,
    'utf8',
  ),
]);

interface DripRecord {
  startedMs: number;
  closedMs: number | null;
  bytes: number;
}

interface HostileSite {
  origin: string;
  /** Requests received, by path. */
  requests: Map<string, number>;
  drips: DripRecord[];
  close(): Promise<void>;
}

async function startHostileSite(): Promise<HostileSite> {
  const requests = new Map<string, number>();
  const drips: DripRecord[] = [];
  const bomb = gzipSync(Buffer.alloc(BOMB_DECODED_BYTES), { level: 9 });
  const declaredBody = Buffer.alloc(OVERSIZED_BYTES, 'a');
  const timers = new Set<NodeJS.Timeout>();

  const html = (res: ServerResponse, body: string | Buffer, status = 200, extra: Record<string, string> = {}): void => {
    const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(data.length), ...extra });
    res.end(data);
  };
  const redirect = (res: ServerResponse, status: number, location: string): void => {
    res.writeHead(status, { location, 'content-length': '0' });
    res.end();
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const n = (requests.get(p) ?? 0) + 1;
    requests.set(p, n);
    switch (p) {
      case '/':
        return html(res, HOME);
      case '/control.html':
        // Over 256 KB, so that the control crawl, like the hostile one, works on it in a document
        // worker (a small page alone is worked on the crawl's own thread, some 17 MB less).
        return html(res, page('Control page', `<p>Crawled alone to measure the memory of an ordinary crawl.</p>\n${'<p>Padding.</p>\n'.repeat(20_000)}`));
      case '/normal.html':
        return html(res, page('Normal page', '<p>An ordinary page among hostile ones.</p>'));
      case '/loop-a':
        return redirect(res, 302, '/loop-b');
      case '/loop-b':
        return redirect(res, 302, '/loop-a');
      case '/chain-1':
        return redirect(res, 301, '/chain-2');
      case '/chain-2':
        return redirect(res, 302, '/chain-3');
      case '/chain-3':
        return redirect(res, 307, '/final.html');
      case '/final.html':
        return html(res, page('Final page', '<p>The end of a three-hop redirect chain.</p>'));
      case '/drip': {
        // Chunked, one byte per interval, forever: every idle timer stays happy, only a deadline stops it.
        const rec: DripRecord = { startedMs: Date.now(), closedMs: null, bytes: 0 };
        drips.push(rec);
        res.writeHead(200, { 'content-type': 'text/html' });
        res.flushHeaders();
        const t = setInterval(() => {
          rec.bytes++;
          res.write('x');
        }, DRIP_INTERVAL_MS);
        timers.add(t);
        res.on('close', () => {
          clearInterval(t);
          timers.delete(t);
          rec.closedMs = Date.now();
        });
        return;
      }
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(declaredBody.length) });
        res.end(declaredBody);
        return;
      case '/big-chunked': {
        // No Content-Length: the cap must be enforced while reading.
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'b');
        let sent = 0;
        const pump = (): void => {
          while (sent < OVERSIZED_BYTES && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end();
        };
        pump();
        return;
      }
      case '/bomb':
        res.writeHead(200, {
          'content-type': 'text/html',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        });
        res.end(bomb);
        return;
      case '/reset': {
        // Half the declared body, then a TCP reset, on every attempt.
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(RESET_BODY_BYTES) });
        res.write(Buffer.alloc(RESET_BODY_BYTES / 2, 'r'), () => {
          const t = setTimeout(() => {
            timers.delete(t);
            if (!req.socket.destroyed) req.socket.resetAndDestroy();
          }, 20);
          timers.add(t);
        });
        return;
      }
      case '/busy':
        if (n === 1) return html(res, 'slow down', 429, { 'retry-after': '1' });
        return html(res, page('Busy page', '<p>Served on the second try.</p>'));
      case '/malformed.html':
        return html(res, MALFORMED);
      case '/malformed-child.html':
        return html(res, page('Malformed child', '<p>Linked from the malformed page.</p>'));
      case '/after-nesting.html':
        return html(res, page('After nesting', '<p>Linked from beyond 50,000 nested elements.</p>'));
      case '/bom.html':
        // The header lies: the byte order mark says UTF-8, and per WHATWG it wins.
        res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1', 'content-length': String(BOM_PAGE.length) });
        res.end(BOM_PAGE);
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
    }
  };

  const server: Server = createServer(handle);
  // Resets and aborted uploads surface as socket errors on the server: expected here.
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    drips,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The href of the first <a> whose text is `text`, in a saved page. */
function hrefOf(html: string | undefined, text: string): string {
  assert.ok(html !== undefined, 'the page was not saved');
  const m = new RegExp(`<a\\b[^>]*\\bhref="([^"]*)"[^>]*>${text}</a>`).exec(html);
  assert.ok(m, `no link '${text}' in the saved page`);
  return m[1]!;
}

describe('harvest crawl of a hostile website', () => {
  let work: string;
  let site: HostileSite;
  let archive: string;
  let mirror: string;
  let run: HarvestRun;
  let control: HarvestRun;
  let stats: CrawlStats;
  let records: Map<string, UrlRecord>;
  let homeHtml: string | undefined;
  let homeFile = '';

  const url = (p: string): string => `${site.origin}${p}`;
  const record = (p: string): UrlRecord => {
    assert.ok(records, `no catalogue to read (exit ${run.status}): ${run.stderr}`);
    const r = records.get(url(p));
    assert.ok(r, `${p} is not in the catalogue`);
    return r;
  };
  /** Where a saved page's href lands on disk. */
  const fileOfHref = (fromFile: string, href: string): string => {
    const target = new URL(href, pathToFileURL(fromFile));
    assert.equal(target.protocol, 'file:', `href ${href} is not relative`);
    return fileURLToPath(target);
  };
  const savedFile = (p: string): string => {
    const r = record(p);
    assert.equal(r.state, 'archived', `${p}: ${r.state} ${r.error ?? ''}`);
    assert.ok(r.localPath);
    return path.join(mirror, r.localPath);
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-hostile-'));
    site = await startHostileSite();
    archive = path.join(work, 'archive');
    mirror = path.join(archive, 'mirror');
    const limits = ['--deadline-ms', String(DEADLINE_MS), '--max-response-bytes', String(MAX_RESPONSE_BYTES), '--delay-ms', '0'];
    // The one-page control crawl gives this machine's baseline memory for the bomb check.
    control = await runHarvest(['crawl', `${site.origin}/control.html`, '--out', path.join(work, 'control'), '--quiet', ...limits]);
    run = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--quiet', '--connections', '4', ...limits], {
      timeoutMs: 180_000,
    });
    // Read whatever the catalogue holds even after a failed run, so each test can say what went wrong.
    if (!existsSync(path.join(archive, 'catalogue.sqlite'))) return;
    stats = readArchiveStats(archive);
    records = new Map(listRecords(archive).map((r) => [r.url, r]));
    const home = records.get(url('/'));
    if (home?.localPath) {
      homeFile = path.join(mirror, home.localPath);
      homeHtml = readFileSync(homeFile, 'utf8');
    }
  });

  after(async () => {
    await site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finishes: exit code 0, state finished, nothing left queued', () => {
    assert.equal(run.timedOut, false, 'the crawl did not end within 180 s');
    assert.equal(run.status, 0, `exit ${run.status} ${run.signal ?? ''}\n${run.stderr}`);
    assert.equal(stats.state, 'finished');
    assert.equal(stats.byState.queued, 0);
    assert.ok(existsSync(path.join(mirror, 'index.html')), 'no mirror/index.html');
  });

  it('archives the normal page, and the saved home page links to its local copy', () => {
    const file = savedFile('/normal.html');
    assert.equal(fileOfHref(homeFile, hrefOf(homeHtml, 'normal page')), file);
    assert.match(readFileSync(file, 'utf8'), /An ordinary page among hostile ones\./);
    assert.equal(site.requests.get('/normal.html'), 1);
  });

  it('records both URLs of a redirect loop as redirects, fetched once each, and keeps the link absolute', () => {
    for (const p of ['/loop-a', '/loop-b']) {
      const r = record(p);
      assert.equal(r.state, 'redirect', `${p}: ${r.state}`);
      assert.equal(r.httpStatus, 302);
      assert.equal(r.localPath, null);
      assert.equal(site.requests.get(p), 1, `${p} fetched ${site.requests.get(p)} times`);
    }
    assert.equal(record('/loop-a').redirectTo, url('/loop-b'));
    assert.equal(record('/loop-b').redirectTo, url('/loop-a'));
    assert.match(record('/loop-a').error ?? '', /loop/);
    // Nothing was archived at the end of the loop, so the saved link still works online.
    assert.equal(hrefOf(homeHtml, 'loop start'), url('/loop-a'));
  });

  it('follows a three-hop redirect chain and links the saved home page to the final page', () => {
    assert.equal(record('/chain-1').redirectTo, url('/chain-2'));
    assert.equal(record('/chain-2').redirectTo, url('/chain-3'));
    assert.equal(record('/chain-3').redirectTo, url('/final.html'));
    for (const p of ['/chain-1', '/chain-2', '/chain-3']) {
      assert.equal(record(p).state, 'redirect');
      assert.equal(site.requests.get(p), 1);
    }
    const finalFile = savedFile('/final.html');
    assert.equal(fileOfHref(homeFile, hrefOf(homeHtml, 'chain start')), finalFile);
    assert.match(readFileSync(finalFile, 'utf8'), /three-hop redirect chain/);
  });

  it('gives up on a server dripping one byte every 200 ms at the request deadline', () => {
    const r = record('/drip');
    assert.equal(r.state, 'failed');
    assert.match(r.error ?? '', /^deadline: /);
    assert.ok(r.error?.includes(`${DEADLINE_MS} ms`), r.error ?? '');
    // A deadline is final: no retry, and the connection was dropped near the deadline.
    assert.equal(site.drips.length, 1, `drip requested ${site.drips.length} times`);
    const drip = site.drips[0]!;
    assert.ok(drip.closedMs !== null, 'the dripping connection is still open');
    const heldMs = drip.closedMs - drip.startedMs;
    assert.ok(heldMs >= DEADLINE_MS / 2, `connection dropped after only ${heldMs} ms`);
    assert.ok(heldMs < DEADLINE_MS + 10_000, `connection held for ${heldMs} ms`);
  });

  it('refuses a body whose Content-Length is over --max-response-bytes', () => {
    const r = record('/big-declared');
    assert.equal(r.state, 'failed');
    assert.match(r.error ?? '', /^too-large: /);
    assert.match(r.error ?? '', /Content-Length/);
    assert.equal(r.localPath, null);
  });

  it('refuses a chunked body without length once it passes --max-response-bytes', () => {
    const r = record('/big-chunked');
    assert.equal(r.state, 'failed');
    assert.match(r.error ?? '', /^too-large: /);
    assert.equal(r.localPath, null);
  });

  it("stops inflating a 50 MB gzip bomb at the cap, and the crawler's memory stays flat", () => {
    const r = record('/bomb');
    assert.equal(r.state, 'failed');
    assert.match(r.error ?? '', /^too-large: /);
    assert.match(r.error ?? '', /decoded/);
    assert.equal(site.requests.get('/bomb'), 1);
    // Peak RSS comes from /proc (Linux); elsewhere only the error above is checked.
    if (run.peakRssKiB !== null && control.peakRssKiB !== null) {
      assert.equal(control.status, 0, control.stderr);
      const growth = run.peakRssKiB - control.peakRssKiB;
      assert.ok(
        growth < RSS_GROWTH_LIMIT_KIB,
        `peak RSS ${Math.round(run.peakRssKiB / 1024)} MiB against ${Math.round(control.peakRssKiB / 1024)} MiB for a one-page crawl`,
      );
    }
  });

  it('records a connection reset mid-body as a network failure, and the crawl carries on', () => {
    const r = record('/reset');
    assert.equal(r.state, 'failed');
    // A reset is transient: two retries, then the record says so. Now and then a reset reaches the
    // client as an orderly close (the kernel's report of it races libuv's read), a body cut short of
    // its Content-Length: just as transient, so just as retried.
    assert.equal(site.requests.get('/reset'), 3);
    assert.match(r.error ?? '', /^network: .*\(gave up after 3 attempts\)$/);
    // Pages linked beside it were still archived.
    for (const p of ['/normal.html', '/final.html', '/busy', '/malformed.html']) assert.equal(record(p).state, 'archived');
  });

  it('retries a 429 after its Retry-After and archives the second answer', () => {
    const r = record('/busy');
    assert.equal(r.state, 'archived');
    assert.equal(r.httpStatus, 200);
    assert.equal(site.requests.get('/busy'), 2);
    assert.match(readFileSync(savedFile('/busy'), 'utf8'), /Served on the second try\./);
  });

  it('archives malformed HTML as it was and still follows its links', () => {
    const file = savedFile('/malformed.html');
    const saved = readFileSync(file, 'utf8');
    // The nesting survives byte for byte (only references and the charset declaration change).
    assert.ok(saved.includes('<div>'.repeat(NESTING_DEPTH) + 'deep text'), 'the deep nesting was not kept');
    assert.ok(saved.endsWith('<span class="trunc'), 'the truncated end was not kept');
    for (const [text, p] of [
      ['child link', '/malformed-child.html'],
      ['after the nesting', '/after-nesting.html'],
    ] as const) {
      const target = savedFile(p);
      assert.equal(fileOfHref(file, hrefOf(saved, text)), target, `link '${text}'`);
      assert.equal(site.requests.get(p), 1);
    }
    // The duplicate href is ignored, as a browser ignores it.
    assert.equal(site.requests.get('/ignored-duplicate.html'), undefined);
  });

  it('lets a UTF-8 byte order mark win over an ISO-8859-1 header and saves the page as UTF-8', () => {
    const bytes = readFileSync(savedFile('/bom.html'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    assert.ok(text.includes(BOM_TEXT), `saved text: ${text.slice(0, 400)}`);
    assert.ok(!/Ã|Â|â€/.test(text), 'the saved copy holds mojibake');
    assert.ok(!/charset="?iso-8859-1/i.test(text), 'the wrong charset declaration is still there');
    assert.match(text, /<meta charset="utf-8">/);
  });
});
