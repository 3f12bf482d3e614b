import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { QaPageResult } from '../../shared/qa.js';
import type { QaReport } from '../../shared/report.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { waczPackage, writeZip } from '../helpers/zipFiles.js';
import { extractZip } from '../helpers/zipReadBack.js';

const CHROMIUM = '/usr/bin/chromium';

async function qa(archive: string, ...args: string[]): Promise<{ status: number | null; pages: QaPageResult[]; stderr: string }> {
  const run = await runHarvest(['qa', archive, '--json', '--quiet', '--browser-path', CHROMIUM, ...args], { timeoutMs: 400_000 });
  const pages = run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as { pages: QaPageResult[] }).pages;
  return { status: run.status, pages, stderr: run.stderr };
}

/** A copy of `wacz` whose index has no line for URLs ending in `suffix`: its records are there, unreachable. */
async function withoutIndexed(wacz: string, suffix: string, out: string, work: string): Promise<number> {
  const dir = path.join(work, 'unpacked');
  const names = (await extractZip(wacz, dir)).map((e) => e.name);
  const read = (name: string) => readFileSync(path.join(dir, ...name.split('/')));
  assert.ok(names.includes('indexes/index.cdx'), `an uncompressed index in ${names.join(', ')}`);
  const lines = read('indexes/index.cdx').toString('utf8').split('\n').filter(Boolean);
  const kept = lines.filter((l) => !(JSON.parse(l.slice(l.indexOf('{'))) as { url: string }).url.endsWith(suffix));
  const resources = [
    ...names.filter((n) => n.startsWith('archive/')).map((name) => ({ name, data: read(name) })),
    { name: 'indexes/index.cdx', data: Buffer.from(kept.map((l) => l + '\n').join('')) },
    { name: 'pages/pages.jsonl', data: read('pages/pages.jsonl') },
  ];
  await writeZip(out, [...resources, ...waczPackage(resources)]);
  return lines.length - kept.length;
}

describe('QA analysis: the WACZ replay as a second copy', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 900_000 }, () => {
  let work: string;
  let bench: BenchSite;
  const archive = () => path.join(work, 'bench');

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-qa-replay-'));
    bench = await startBenchSite({ pages: 150, workDir: work });
    const crawl = await runHarvest(['crawl', `${bench.origin}/`, '--out', archive(), '--max-pages', '20', '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
  });

  after(async () => {
    await bench?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('scores a static crawl as matching the live pages on both copies, the offline copy and the replay', async () => {
    const { status, pages, stderr } = await qa(archive(), '--limit', '5');
    assert.equal(status, 0, stderr);
    assert.equal(pages.length, 5);
    for (const p of pages) {
      assert.equal(p.reference, 'live', p.url);
      for (const copy of ['mirror', 'replay'] as const) {
        const c = p.copies[copy];
        assert.ok(c, `${p.url}: no ${copy} figures in ${JSON.stringify(p.copies)}`);
        assert.equal(c.error, null, `${p.url} ${copy}`);
        assert.ok(c.textMatch! >= 0.95, `${p.url} ${copy}: text ${c.textMatch}`);
        assert.ok(c.screenshotMatch! >= 0.9, `${p.url} ${copy}: screenshot ${c.screenshotMatch}`);
        assert.deepEqual(c.missing, [], `${p.url} ${copy}`);
      }
      assert.equal(p.textMatch, Math.min(p.copies.mirror!.textMatch!, p.copies.replay!.textMatch!), p.url);
      assert.ok(existsSync(path.join(archive(), 'qa', '1', new URL(bench.origin).host.replace(':', '_'), ...new URL(p.url).pathname.split('/').filter(Boolean), 'index.html.replay.png')), `${p.url}: the replay's picture kept`);
    }
  });

  it("scores low on the replay only when the WACZ lacks a record the page needs, naming it", async () => {
    const wacz = path.join(work, 'bench.wacz');
    const exported = await runHarvest(['export', archive(), '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(exported.status, 0, exported.stderr);
    const damaged = path.join(work, 'damaged.wacz');
    assert.ok((await withoutIndexed(wacz, '/assets/css/main.css', damaged, work)) > 0, 'the stylesheet was in the index');
    const { pages, stderr } = await qa(archive(), '--fresh', '--limit', '3', '--wacz', damaged);
    assert.equal(pages.length, 3, stderr);
    for (const p of pages) {
      const { mirror, replay } = p.copies;
      assert.ok(mirror && replay, JSON.stringify(p.copies));
      assert.ok(mirror.screenshotMatch! >= 0.9, `${p.url} mirror: screenshot ${mirror.screenshotMatch}`);
      assert.deepEqual(mirror.missing, [], p.url);
      assert.ok(replay.screenshotMatch! < 0.9, `${p.url} replay: screenshot ${replay.screenshotMatch}`);
      assert.ok(replay.missing.some((m) => m.url === `${bench.origin}/assets/css/main.css` && m.type === 'stylesheet'), `${p.url}: ${JSON.stringify(replay.missing)}`);
      assert.equal(p.screenshotMatch, replay.screenshotMatch, `${p.url}: the page is ranked by its worse copy`);
    }
    // The QA report shows each copy's figures: the replay's low, the offline copy's not.
    const report = await runHarvest(['report', archive(), '--format', 'json']);
    const worst = (JSON.parse(report.stdout) as QaReport).analysis?.worst[0];
    assert.ok(worst?.copies.replay && worst.copies.replay.screenshotMatch! < 0.9, report.stdout.slice(0, 500));
    const md = await runHarvest(['report', archive(), '--format', 'md']);
    const section = md.stdout.split('## Pages to look at first')[1]?.split('\n## ')[0] ?? '';
    assert.match(section, /\| Offline copy \(text \/ screenshot\) \| Replay \(text \/ screenshot\) \| Reference \|/);
    assert.match(section, new RegExp(`\\| ${bench.origin}/\\S* \\| [\\d.]+% \\| [\\d.]+% \\| [\\d.]+% / (?:100\\.0|9\\d\\.\\d)% \\| [\\d.]+% / [0-8]?\\d\\.\\d% \\| live \\|`));
    const mirrorOnly = await qa(archive(), '--fresh', '--limit', '2', '--copies', 'mirror', '--wacz', damaged);
    assert.equal(mirrorOnly.status, 0, mirrorOnly.stderr);
    for (const p of mirrorOnly.pages) assert.deepEqual(Object.keys(p.copies), ['mirror'], p.url);
  });
});
