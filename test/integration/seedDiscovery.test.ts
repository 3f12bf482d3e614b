import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/**
 * A site with its own search page (two result pages for "flood", one for "river", chrome links
 * on every page), a robots.txt that keeps crawlers out of /private/ and names a sitemap index,
 * and the index's two sitemaps, one of them gzip-compressed. Every request is logged.
 */
interface Hit {
  path: string;
  at: number;
}

const RESULTS: Record<string, string[][]> = {
  flood: [['/reports/flood-2024', '/private/flood-secret', '/news/river'], ['/reports/flood-2023', '/news/river']],
  river: [['/news/river', '/reports/river-levels']],
};

function page(title: string, body = ''): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
}

function searchPage(q: string, n: number): string {
  const results = RESULTS[q]?.[n - 1] ?? RESULTS[q]?.at(-1) ?? [];
  const chrome = '<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>';
  const list = results.map((r) => `<li><a href="${r}">${r}</a></li>`).join('');
  return page(`Search: ${q}`, `${chrome}<main><ol>${list}</ol><a href="/search?q=${q}&page=${n + 1}">next</a></main><footer><a href="/contact">Contact</a></footer>`);
}

function urlset(entries: [string, number][], origin: string): string {
  const urls = entries.map(([p, pr]) => `<url><loc>${origin}${p}</loc><priority>${pr}</priority></url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
}

let server: Server;
let origin = '';
const hits: Hit[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'harvest-seeds-'));

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    hits.push({ path: url.pathname + url.search, at: Date.now() });
    const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'content-type': type }).end(body);
    if (url.pathname === '/robots.txt') return send('text/plain', `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/maps/index.xml\n`);
    if (url.pathname === '/search') return send('text/html', searchPage(url.searchParams.get('q') ?? '', Number(url.searchParams.get('page'))));
    if (url.pathname === '/maps/index.xml') {
      const maps = ['/maps/a.xml', '/maps/b.xml.gz'].map((m) => `<sitemap><loc>${origin}${m}</loc></sitemap>`).join('');
      return send('application/xml', `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${maps}</sitemapindex>`);
    }
    if (url.pathname === '/maps/a.xml') return send('application/xml', urlset([['/events/fete', 0.9], ['/reports/flood-maps', 0.1]], origin));
    if (url.pathname === '/maps/b.xml.gz') return send('application/gzip', gzipSync(urlset([['/docs/flood-plan', 0.5]], origin)));
    return send('text/html', page(url.pathname));
  });
  origin = await listenOnLoopback(server);
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('seed discovery', () => {
  it('ranks search results (round-robin over the queries) then sitemap URLs by topic score, fetched politely and obeying robots.txt', async () => {
    const template = path.join(dir, 't.json');
    writeFileSync(
      template,
      JSON.stringify({
        topic: { keywords: ['flood'] },
        seeds: { keywords: ['flood', 'river'], search: [`${origin}/search?q={q}&page={page}`], pages: 5, sitemaps: true },
      }),
    );
    const out = path.join(dir, 'a');
    hits.length = 0;
    const run = await runHarvest(['crawl', `${origin}/`, '--out', out, '--quiet', '--template', template, '--delay-ms', '150', '--connections', '1']);
    assert.equal(run.status, 0, run.stderr);
    const records = listRecords(out);
    const seeds = records.filter((r) => r.depth === 0).map((r) => new URL(r.url).pathname);
    assert.deepEqual(seeds, [
      '/',
      // rank 1 of "flood", rank 1 of "river" (already taken: /news/river), rank 2 of each, ...
      '/reports/flood-2024',
      '/news/river',
      '/private/flood-secret',
      '/reports/river-levels',
      '/reports/flood-2023',
      // sitemaps: the URLs naming the topic first (equal scores by <priority>), then the rest
      '/docs/flood-plan',
      '/reports/flood-maps',
      '/events/fete',
    ]);
    const secret = records.find((r) => r.url.endsWith('/private/flood-secret'));
    assert.equal(secret?.skipReason, 'robots');
    const paths = hits.map((h) => h.path);
    assert.equal(paths.filter((p) => p === '/robots.txt').length, 1, 'robots.txt is read once, by discovery, and kept for the crawl');
    assert.ok(!paths.some((p) => p.startsWith('/private/')), 'nothing robots.txt disallows is fetched');
    // "flood" stops at page 3, which adds no new result; "river" at its page 2, which repeats page 1.
    assert.deepEqual(
      paths.filter((p) => p.startsWith('/search')),
      ['/search?q=flood&page=1', '/search?q=flood&page=2', '/search?q=flood&page=3', '/search?q=river&page=1', '/search?q=river&page=2'],
    );
    assert.ok(!paths.includes('/about') && !paths.includes('/contact'), 'the search page chrome gives no seeds');
    // Gaps as the server sees the requests start; the first request also opened the connection, so
    // the second may arrive sooner after it than the crawl's delay. The server's own clock reading
    // lags when the machine is loaded (128 ms was seen at load 14), so the bound leaves it 50 ms:
    // without the delay the gaps are a few ms.
    for (let i = 2; i < hits.length; i++) {
      const gap = hits[i]!.at - hits[i - 1]!.at;
      assert.ok(gap >= 100, `${hits[i]!.path} started ${gap} ms after ${hits[i - 1]!.path} (delay 150 ms)`);
    }
  });
});
