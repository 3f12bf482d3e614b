import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { HostGateRegistry } from '../../electron/engine/politeness/hostGate.js';
import { Archive } from '../../electron/engine/store/archive.js';

const PAGES = 40;
const LATENCY_MS = 30;

/** A site of PAGES linked pages that records how many requests it serves at once. */
function startCountingSite(): Promise<{ server: Server; origin: string; peak: () => number; starts: number[] }> {
  let active = 0;
  let peak = 0;
  const starts: number[] = [];
  const server = createServer((req, res) => {
    active++;
    peak = Math.max(peak, active);
    starts.push(Date.now());
    setTimeout(() => {
      active--;
      if (req.url === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}.html">page ${i}</a>`).join('\n');
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><title>${req.url}</title>${links}`);
    }, LATENCY_MS);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      resolve({ server, origin: `http://127.0.0.1:${port}`, peak: () => peak, starts });
    });
  });
}

describe('two crawls of one site in one process', () => {
  let work: string;
  let site: Awaited<ReturnType<typeof startCountingSite>>;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-polite-'));
    site = await startCountingSite();
  });

  after(() => {
    site?.server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('never exceed the per-site connection limit together, and both finish', async () => {
    const gates = new HostGateRegistry();
    const job = parseJob({ seeds: [`${site.origin}/`], politeness: { perHostConnections: 2, delayMs: 0 } });
    const archives = [Archive.create(path.join(work, 'a'), job), Archive.create(path.join(work, 'b'), job)];
    try {
      const states = await Promise.all(archives.map((a) => new Crawl(a, { gates }).run()));
      assert.deepEqual(states, ['finished', 'finished']);
      for (const a of archives) assert.equal(a.catalogue.countByState().archived, PAGES + 1);
    } finally {
      for (const a of archives) a.close();
    }
    assert.ok(site.peak() <= 2, `peak of ${site.peak()} requests in flight`);
    assert.equal(site.peak(), 2, 'the two crawls did share the two slots');
  });

  it('keep the minimum delay between request starts to a site', async () => {
    site.starts.length = 0;
    const job = parseJob({ seeds: [`${site.origin}/`], politeness: { perHostConnections: 4, delayMs: 40 }, limits: { maxPages: 6 } });
    const archive = Archive.create(path.join(work, 'delay'), job);
    try {
      assert.equal(await new Crawl(archive).run(), 'finished');
    } finally {
      archive.close();
    }
    const starts = site.starts;
    assert.ok(starts.length >= 6);
    // Requests leave when the event loop gets to them, so single gaps jitter by a few ms either way;
    // over the run the starts must still be spread at least one delay apart on average.
    const spanMs = starts[starts.length - 1]! - starts[0]!;
    assert.ok(spanMs >= (starts.length - 1) * 40 - 15, `${starts.length} requests in ${spanMs} ms`);
  });
});
