import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { qaScore, type QaPageResult } from '../../shared/qa.js';
import type { QaReport } from '../../shared/report.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startJsSite, type JsSite } from '../helpers/jsSite.js';

const CHROMIUM = '/usr/bin/chromium';

async function qa(archive: string, ...args: string[]): Promise<{ status: number | null; pages: QaPageResult[]; stderr: string }> {
  const run = await runHarvest(['qa', archive, '--json', '--quiet', '--browser-path', CHROMIUM, ...args], { timeoutMs: 300_000 });
  const pages = run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as { pages: QaPageResult[] }).pages;
  return { status: run.status, pages, stderr: run.stderr };
}

describe('QA analysis (harvest qa)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 600_000 }, () => {
  let work: string;
  let bench: BenchSite;
  let js: JsSite;
  const benchArchive = () => path.join(work, 'bench');

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-qa-'));
    bench = await startBenchSite({ pages: 150, workDir: work });
    js = await startJsSite();
    const crawl = await runHarvest(['crawl', `${bench.origin}/`, '--out', benchArchive(), '--max-pages', '40', '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
  });

  after(async () => {
    await bench?.stop();
    await js?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('scores a static crawl of the bench site as matching its live pages, and resumes', async () => {
    const first = await qa(benchArchive(), '--limit', '4');
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.pages.length, 4);
    const second = await qa(benchArchive(), '--limit', '8');
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stderr, /4 pages analysed now, 4 from an earlier run/);
    assert.equal(second.pages.length, 8);
    for (const p of second.pages) {
      assert.equal(p.error, null, p.url);
      assert.ok(p.textMatch! >= 0.95, `${p.url}: text ${p.textMatch}`);
      assert.ok(p.screenshotMatch! >= 0.9, `${p.url}: screenshot ${p.screenshotMatch}`);
      assert.deepEqual(p.missing, [], p.url);
      assert.deepEqual(p.deadLinks, [], p.url);
    }
  });

  it('finds what the copy lacks: a stylesheet gone from the offline copy is missing, and the page looks different', async () => {
    const css = path.join(benchArchive(), 'mirror', new URL(bench.origin).host.replace(':', '_'), 'assets', 'css', 'main.css');
    renameSync(css, `${css}.gone`);
    try {
      const { pages } = await qa(benchArchive(), '--fresh', '--limit', '3');
      assert.equal(pages.length, 3);
      for (const p of pages) {
        assert.ok(p.missing.some((m) => m.url === `${bench.origin}/assets/css/main.css` && m.type === 'stylesheet'), `${p.url}: ${JSON.stringify(p.missing)}`);
        assert.ok(p.screenshotMatch! < 0.9, `${p.url}: screenshot ${p.screenshotMatch}`);
      }
    } finally {
      renameSync(`${css}.gone`, css);
    }
  });

  it('ranks the script-built pages of a static crawl lowest, naming the data and images the copy could not load', async () => {
    const archive = path.join(work, 'js');
    const crawl = await runHarvest(['crawl', `${js.origin}/`, '--out', archive, '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
    const { status, pages, stderr } = await qa(archive);
    assert.equal(status, 0, stderr);
    const listing = pages.find((p) => p.url === `${js.origin}/listing`);
    assert.ok(listing, JSON.stringify(pages.map((p) => p.url)));
    const missing = listing.missing.map((m) => new URL(m.url).pathname + new URL(m.url).search);
    assert.ok(missing.includes('/api/items.json'), JSON.stringify(missing));
    assert.ok(missing.includes('/img/item-1.png'), JSON.stringify(missing));
    assert.ok(listing.textMatch! < 0.95, `listing text ${listing.textMatch}`);
    // Worst first: the two pages whose content their scripts fetch lead the list, the listing (most of
    // it fetched) first; the plain pages match.
    const ranked = pages.map((p) => [new URL(p.url).pathname, qaScore(p)] as const);
    assert.deepEqual(ranked.slice(0, 2).map(([p]) => p), ['/listing', '/outside'], JSON.stringify(ranked));
    for (const [p, score] of ranked.slice(2)) assert.ok(score! >= 0.95, `${p}: ${score}`);
    // The QA report carries the analysis: the histogram, and the pages to look at first with what they lack.
    const report = await runHarvest(['report', archive, '--format', 'json']);
    const analysis = (JSON.parse(report.stdout) as QaReport).analysis;
    assert.ok(analysis, report.stderr);
    assert.equal(analysis.analysed, pages.length);
    assert.equal(analysis.histogram.reduce((a, b) => a + b, 0), pages.length);
    assert.equal(analysis.withMissing, 2);
    const md = await runHarvest(['report', archive, '--format', 'md']);
    const section = md.stdout.split('## Pages to look at first')[1]?.split('\n## ')[0] ?? '';
    assert.match(section, new RegExp(`\\| ${js.origin}/listing \\| \\d+\\.\\d% \\|`));
    assert.match(section, /fetch: http:\/\/127\.0\.0\.1:\d+\/api\/items\.json/);
    // A page that matches in full, with nothing missing, is not among them.
    const matched = pages.filter((p) => qaScore(p) === 1 && p.missing.length === 0);
    assert.ok(matched.length > 0, JSON.stringify(ranked));
    for (const p of matched) assert.ok(!section.includes(`| ${p.url} |`), `${p.url} listed though it matches`);
  });
});
