import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlStats, UrlRecord } from '../../shared/crawl.js';
import { CLI, linkcheck, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { assertTilesFile, payloadOf, readRaw, sha256Base32 } from '../helpers/warcReadBack.js';

const PAGES = 400;

describe(`harvest crawl of the ${PAGES}-page bench site`, () => {
  let work: string;
  let site: BenchSite;
  let archive: string;
  let crawl: ReturnType<typeof spawnSync>;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-it-'));
    site = await startBenchSite({ pages: PAGES, workDir: work, compress: true });
    archive = path.join(work, 'archive');
    crawl = spawnSync(process.execPath, [CLI, 'crawl', `${site.origin}/`, '--out', archive, '--quiet', '--delay-ms', '0'], {
      encoding: 'utf8',
      timeout: 240_000,
    });
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finishes with exit code 0', () => {
    assert.equal(crawl.status, 0, String(crawl.stderr));
  });

  it('archives every page and asset of the manifest, and every archived reference works offline', () => {
    const r = linkcheck(path.join(archive, 'mirror'), path.join(site.dir, 'manifest.json'), path.join(work, 'lc.json'));
    assert.equal(r.coverage.pages, r.coverage.pagesTotal, `missing: ${r.coverage.missingExamples.join(' ')}`);
    assert.equal(r.coverage.assets, r.coverage.assetsTotal, `missing: ${r.coverage.missingExamples.join(' ')}`);
    assert.equal(r.privatePagesOnDisk, 0);
    assert.equal(r.links.escapedArchivable, 0, r.links.examples.escaped.join('\n'));
    assert.equal(r.links.brokenArchivable, 0, r.links.examples.broken.join('\n'));
  });

  it('fetches each URL once and obeys robots.txt', async () => {
    const s = (await site.stats()) as { duplicateRequests: number; disallowedRequests: number; robotsTxt: number };
    assert.equal(s.duplicateRequests, 0);
    assert.equal(s.disallowedRequests, 0);
    assert.equal(s.robotsTxt, 1);
  });

  it('stops every trap at a guard, not at a limit', async () => {
    const s = (await site.stats()) as { traps: Record<string, { requests: number }> };
    for (const t of site.manifest.traps) {
      const requests = s.traps[t.name]?.requests ?? 0;
      assert.ok(requests > 0, `trap ${t.name} was never reached`);
      assert.ok(requests <= 600, `trap ${t.name}: ${requests} requests`);
    }
    const stats = JSON.parse(
      spawnSync(process.execPath, [CLI, 'stats', archive, '--json'], { encoding: 'utf8' }).stdout,
    ) as CrawlStats;
    assert.equal(stats.state, 'finished');
    assert.equal(stats.byState.queued, 0);
    const reasons = Object.keys(stats.counts.skippedByReason);
    for (const reason of ['trap:query-variants', 'trap:path-slashes', 'trap:segment-repeats', 'trap:query-params']) {
      assert.ok(reasons.includes(reason), `no URL skipped by ${reason}: ${reasons.join(', ')}`);
    }
    assert.ok(!reasons.some((r) => r.startsWith('limit:')), reasons.join(', '));
    assert.ok((stats.counts.skippedByReason.robots ?? 0) > 0);
  });

  it('lists one record per URL with its state and local path', () => {
    const out = spawnSync(process.execPath, [CLI, 'list', archive, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(out.status, 0, out.stderr);
    const records = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as UrlRecord);
    const urls = new Set(records.map((r) => r.url));
    assert.equal(urls.size, records.length, 'a URL is listed twice');
    const home = records.find((r) => r.url === `${site.origin}/`);
    assert.equal(home?.state, 'archived');
    assert.match(home?.localPath ?? '', /index\.html$/);
    for (const r of records) if (r.state === 'archived') assert.ok(r.localPath, `${r.url} has no local path`);
    const redirect = records.find((r) => r.url === `${site.origin}/old-site/about.html`);
    assert.equal(redirect?.state, 'redirect');
    assert.equal(redirect?.redirectTo, `${site.origin}/about/`);
  });

  it('records every fetch in a WARC file as it crawls, read back with warcio', async () => {
    const dir = path.join(archive, 'warc');
    const files = readdirSync(dir).filter((f) => f.endsWith('.warc.gz'));
    assert.equal(files.length, 1, `files: ${readdirSync(dir).join(' ')}`);
    const file = path.join(dir, files[0]!);
    const records = await readRaw(file);
    assertTilesFile(records, file);
    assert.equal(records[0]?.type, 'warcinfo');

    const out = spawnSync(process.execPath, [CLI, 'list', archive, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const fetched = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as UrlRecord)
      .filter((r) => r.state === 'archived' || r.state === 'redirect' || r.state === 'http-error');
    const responses = records.filter((r) => r.type === 'response' || r.type === 'revisit');
    const recorded = new Set(responses.map((r) => r.header('WARC-Target-URI')));
    for (const r of fetched) assert.ok(recorded.has(r.url), `no WARC record for ${r.url}`);
    // One record per fetch, plus robots.txt: nothing recorded twice in an uninterrupted crawl.
    assert.equal(responses.length, fetched.length + 1);
    assert.equal(records.filter((r) => r.type === 'request').length, responses.length);
    for (const r of records.filter((x) => x.type === 'response')) {
      assert.equal(r.header('WARC-Payload-Digest'), sha256Base32(payloadOf(r.block)), r.header('WARC-Target-URI') ?? '');
    }
    assert.ok(records.some((r) => r.type === 'metadata'), 'no outlinks recorded');
  });
});
