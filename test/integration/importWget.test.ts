/**
 * `harvest import` of Debian's `wget --mirror --page-requisites --warc-file` harvest of the bench
 * site, against a Harvest crawl of the same site with the same exclusions: the same HTML pages
 * archived, an offline copy whose links all work, the same search answers, a WACZ that verifies,
 * and the WARC file kept byte for byte.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UrlRecord } from '../../shared/crawl.js';
import { linkcheck, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';

/** The site's crawler traps, left out of both harvests (wget has no guard against them). */
const TRAPS = '/events/calendar|/a/b/a/b|/search\\?|/deep/';
const hasWget = spawnSync('wget', ['--version']).status === 0;

function wget(args: string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('wget', args, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

async function archivedOf(archive: string): Promise<UrlRecord[]> {
  const r = await runHarvest(['list', archive, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as UrlRecord)
    .filter((u) => u.state === 'archived');
}

const htmlPages = (records: UrlRecord[]) => records.filter((r) => (r.contentType ?? '').startsWith('text/html')).map((r) => r.url).sort();

describe('harvest import: a wget --mirror WARC', { timeout: 600_000, skip: hasWget ? false : 'wget is not installed' }, () => {
  let work: string;
  let site: BenchSite;
  let warcFile: string;
  let imported: string;
  let crawled: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-wget-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    const wgetDir = path.join(work, 'wget');
    mkdirSync(wgetDir);
    const code = await wget(['-q', '--mirror', '--page-requisites', '--reject-regex', TRAPS, '--warc-file', path.join(work, 'site'), `${site.origin}/`], wgetDir);
    // 8: some answers were 4xx; 3: wget could not save a page in its own mirror (a URL both a file and
    // a folder of others), which its WARC holds all the same.
    assert.ok(code === 0 || code === 3 || code === 8, `wget exited with ${code}`);
    warcFile = path.join(work, 'site.warc.gz');
    imported = path.join(work, 'imported');
    crawled = path.join(work, 'crawled');
    const r = await runHarvest(['import', warcFile, '--out', imported, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    const c = await runHarvest(['crawl', `${site.origin}/`, '--out', crawled, '--exclude', TRAPS, '--delay-ms', '0', '--connections', '8', '--quiet'], { timeoutMs: 300_000 });
    assert.equal(c.status, 0, c.stderr);
  });
  after(async () => {
    await site?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('archives the same HTML pages as a Harvest crawl, and nothing the crawl did not', async () => {
    const fromWget = await archivedOf(imported);
    const fromHarvest = await archivedOf(crawled);
    const pages = htmlPages(fromWget);
    assert.ok(pages.length > 300, `${pages.length} pages`);
    assert.deepEqual(pages, htmlPages(fromHarvest));
    const crawledUrls = new Set(fromHarvest.map((r) => r.url));
    assert.deepEqual(fromWget.filter((r) => !crawledUrls.has(r.url)).map((r) => r.url), []);
  });

  it('makes an offline copy with every page and no broken link', () => {
    const check = linkcheck(path.join(imported, 'mirror'), path.join(site.dir, 'manifest.json'), path.join(work, 'linkcheck.json'));
    assert.equal(check.coverage.pages, check.coverage.pagesTotal);
    assert.equal(check.links.brokenArchivable, 0);
    assert.deepEqual(check.links.examples.broken, []);
  });

  it('answers searches as the crawl does', async () => {
    for (const q of ['library', '"reading room"', 'scholarship']) {
      const total = async (archive: string) => (JSON.parse((await runHarvest(['search', archive, q, '--json'])).stdout) as { total: number }).total;
      const n = await total(imported);
      assert.ok(n > 0, q);
      assert.equal(n, await total(crawled), q);
    }
  });

  it("keeps wget's WARC file byte for byte, and exports a WACZ that verifies record by record", async () => {
    const files = readdirSync(path.join(imported, 'warc'));
    assert.equal(files.length, 1);
    assert.ok(readFileSync(path.join(imported, 'warc', files[0]!)).equals(readFileSync(warcFile)));
    const wacz = path.join(work, 'imported.wacz');
    const e = await runHarvest(['export', imported, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(e.status, 0, e.stderr);
    const v = await runHarvest(['verify', wacz, '--deep', '--json']);
    assert.equal(v.status, 0, v.stdout);
  });
});
