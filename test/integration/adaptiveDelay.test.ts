/**
 * Politeness by default: two connections and an adaptive delay between request starts to a host,
 * twice its last response time and at least 250 ms; a job may set a fixed delay instead, and
 * Crawl-delay raises either.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADAPTIVE_DELAY_FLOOR_MS, parseJob, type JobInput } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const PAGES = 6;
/** How long the slow site takes to answer each request. */
const SLOW_MS = 200;

describe('default politeness', () => {
  let work: string;
  const servers: Server[] = [];

  /** A site of PAGES linked pages answering after `latencyMs`; records when each request arrived. */
  async function startSite(latencyMs: number, robots = ''): Promise<{ origin: string; starts: number[] }> {
    const starts: number[] = [];
    const server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(robots ? 200 : 404, { 'content-type': 'text/plain' }).end(robots);
      starts.push(Date.now());
      const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}.html">${i}</a>`).join('');
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>t</title>${links}`), latencyMs);
    });
    servers.push(server);
    return { origin: await listenOnLoopback(server), starts };
  }

  async function crawl(origin: string, name: string, extra: Partial<JobInput> = {}): Promise<void> {
    const archive = Archive.create(path.join(work, name), parseJob({ seeds: [`${origin}/`], ...extra }));
    try {
      assert.equal(await new Crawl(archive).run(), 'finished');
    } finally {
      archive.close();
    }
  }

  /** The shortest gap between two request starts, and their mean gap. */
  function gaps(starts: number[]): { min: number; mean: number } {
    assert.ok(starts.length >= PAGES, `${starts.length} requests`);
    const d = starts.slice(1).map((t, i) => t - starts[i]!);
    return { min: Math.min(...d), mean: (starts[starts.length - 1]! - starts[0]!) / d.length };
  }

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-adaptive-'));
  });

  after(() => {
    for (const s of servers) s.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('defaults to two connections and an adaptive delay', () => {
    const job = parseJob({ seeds: ['https://example.org/'] });
    assert.equal(job.politeness.perHostConnections, 2);
    assert.equal(job.politeness.delayMs, null);
  });

  it('leaves at least 250 ms between requests to a fast host', async () => {
    const site = await startSite(0);
    await crawl(site.origin, 'fast');
    // Requests leave when the event loop gets to them, so single gaps jitter (the shared-politeness
    // test says the same); over the run the starts are still spread a delay apart.
    const { min, mean } = gaps(site.starts);
    assert.ok(mean >= ADAPTIVE_DELAY_FLOOR_MS - 10 && min >= ADAPTIVE_DELAY_FLOOR_MS - 60, JSON.stringify({ min, mean }));
  });

  it('leaves twice the last response time between requests to a slow host', async () => {
    const site = await startSite(SLOW_MS);
    await crawl(site.origin, 'slow');
    const { min, mean } = gaps(site.starts);
    assert.ok(mean >= 2 * SLOW_MS - 10 && min >= 2 * SLOW_MS - 60, JSON.stringify({ min, mean }));
  });

  it('a fixed delay replaces the adaptive one, and Crawl-delay raises it', async () => {
    const fixed = await startSite(SLOW_MS);
    await crawl(fixed.origin, 'fixed', { politeness: { delayMs: 0 } });
    assert.ok(gaps(fixed.starts).mean < 2 * SLOW_MS, `fixed 0 ms: ${JSON.stringify(gaps(fixed.starts))}`);

    const slowed = await startSite(0, 'User-agent: *\nCrawl-delay: 0.6\n');
    await crawl(slowed.origin, 'crawl-delay', { politeness: { delayMs: 0 } });
    assert.ok(gaps(slowed.starts).mean >= 600 - 10, JSON.stringify(gaps(slowed.starts)));
  });
});
