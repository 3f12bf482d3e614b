import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReplayCopy } from '../../electron/engine/qa/replayCopy.js';
import { BrowserPool } from '../../electron/engine/render/browserPool.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';

const CHROMIUM = '/usr/bin/chromium';

describe('QA analysis: replay tabs kept from page to page', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 600_000 }, () => {
  let work: string;
  let bench: BenchSite;
  const archiveDir = () => path.join(work, 'bench');

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-qa-tabs-'));
    bench = await startBenchSite({ pages: 150, workDir: work });
    const crawl = await runHarvest(['crawl', `${bench.origin}/`, '--out', archiveDir(), '--max-pages', '8', '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
  });

  after(async () => {
    await bench?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows each page in turn in the tab ReplayWeb.page was loaded in, never the page before', async () => {
    const archive = Archive.open(archiveDir());
    const signal = new AbortController().signal;
    const pool = new BrowserPool({ executablePath: CHROMIUM, pages: 1, maxPageHeapMb: 512, pageTimeoutMs: 60_000, settleMs: 3_000, screenshots: false });
    const replay = await ReplayCopy.open(archive, 1, signal);
    try {
      const urls = [...archive.catalogue.iterateCapturePages(1)].map((p) => p.url).filter((u) => !u.includes('/old/'));
      assert.ok(urls.length >= 3, urls.join(', '));
      const order = [urls[0]!, urls[1]!, urls[2]!, urls[0]!];
      // Every renderer process the browser ran while the later pages were shown: a tab per page starts one each.
      const renderers = new Set<number>();
      let first = true;
      for (const url of order) {
        const shown = await replay.render(pool, url, 60_000, 3_000, signal);
        assert.equal(shown.leftFor, null, url);
        const title = /<title>([^<]*)<\/title>/.exec(shown.html)?.[1]?.replaceAll('&amp;', '&');
        const expected = archive.catalogue.pageOf(url)?.title;
        assert.ok(expected, `${url} has a title in the catalogue`);
        assert.equal(title, expected, `the replay of ${url} shows that page`);
        const cdp = await (await pool.current()!).newBrowserCDPSession();
        const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { id: number; type: string }[] };
        await cdp.detach();
        const now = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
        if (!first) assert.deepEqual(now.filter((id) => !renderers.has(id)), [], `no renderer started to show ${url}`);
        for (const id of now) renderers.add(id);
        first = false;
      }
    } finally {
      await pool.close();
      await replay.close();
      archive.close();
    }
  });
});
