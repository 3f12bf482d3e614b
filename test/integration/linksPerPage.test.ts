/**
 * A page with more links than the crawl queues from one page: every reference to an archived URL in
 * its saved copy is still rewritten, and the links not queued are recorded with their reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlStats, UrlRecord } from '../../shared/crawl.js';
import { MAX_LINKS_QUEUED_PER_PAGE } from '../../electron/engine/crawl/responseArchiver.js';
import { listRecords, readArchiveStats, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/** Links to another host (skipped as out of scope, so they cost no request) fill the queued share. */
const OFFSITE = MAX_LINKS_QUEUED_PER_PAGE - 1;
/** In-scope links past the cap, none linked from anywhere else. */
const PAST_CAP = 3_000;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`;
}

const HOME = page(
  'Big index',
  '<a href="/about.html">about</a>\n' +
    Array.from({ length: OFFSITE }, (_, i) => `<a href="http://offsite.invalid/o/${i}">o${i}</a>`).join('\n') +
    '\n' +
    Array.from({ length: PAST_CAP }, (_, i) => `<a href="/p/${i}.html">p${i}</a>`).join('\n') +
    // Root-relative links to an archived page, past the cap: these must work offline.
    '\n<a href="/license.html">licence one</a>\n<img src="/logo.png">\n<a href="/license.html#terms">licence two</a>\n',
);

describe('links past the per-page cap', () => {
  let work: string;
  let archive: string;
  let records: Map<string, UrlRecord>;
  let stats: CrawlStats;
  let homeCopy: string;
  let origin: string;
  const requested = new Set<string>();
  const server = createServer((req, res: ServerResponse) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    requested.add(p);
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (p === '/') return send('text/html', HOME);
    if (p === '/about.html') return send('text/html', page('About', '<a href="/license.html">licence</a><img src="/logo.png">'));
    if (p === '/license.html') return send('text/html', page('Licence', '<p id="terms">terms</p>'));
    if (p === '/logo.png') return send('image/png', Buffer.from('89504e470d0a1a0a', 'hex'));
    if (p.startsWith('/p/')) return send('text/html', page('p', 'p'));
    res.writeHead(404).end();
  });

  before(async () => {
    origin = await listenOnLoopback(server);
    work = mkdtempSync(path.join(tmpdir(), 'harvest-links-cap-'));
    archive = path.join(work, 'archive');
    const run = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(run.status, 0, run.stderr);
    records = new Map(listRecords(archive).map((r) => [r.url, r]));
    stats = readArchiveStats(archive);
    homeCopy = readFileSync(path.join(archive, 'mirror', records.get(`${origin}/`)!.localPath!), 'utf8');
  });

  after(() => {
    server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('rewrites every reference to an archived URL, however far down the page', () => {
    assert.equal(records.get(`${origin}/license.html`)?.state, 'archived');
    assert.equal(records.get(`${origin}/logo.png`)?.state, 'archived');
    assert.ok(homeCopy.includes('<a href="license.html">licence one</a>'), 'first licence link not rewritten');
    assert.ok(homeCopy.includes('<a href="license.html#terms">licence two</a>'), 'second licence link not rewritten');
    assert.ok(homeCopy.includes('<img src="logo.png">'), 'image past the cap not rewritten');
    assert.ok(!homeCopy.includes('href="/license.html'), 'a root-relative link was left as written');
  });

  it('records the links not queued with the reason limit:links-per-page, counted in stats, and fetches none of them', () => {
    const capped = [...records.values()].filter((r) => r.skipReason === 'limit:links-per-page');
    assert.equal(capped.length, PAST_CAP);
    for (const r of capped) {
      assert.equal(r.state, 'skipped');
      assert.match(r.url, /\/p\/\d+\.html$/);
    }
    assert.equal(stats.counts.skippedByReason['limit:links-per-page'], PAST_CAP);
    assert.ok(![...requested].some((p) => p.startsWith('/p/')), 'a link past the cap was fetched');
  });
});
