import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LoggedEvent } from '../../electron/cli/eventLog.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, readArchiveStats, runHarvest } from '../helpers/harvestCli.js';

describe('harvest crawl --seeds-file and --events-jsonl', () => {
  let work: string;
  let site: BenchSite;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-seeds-'));
    site = await startBenchSite({ pages: 150, workDir: work });
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('crawls from a seed list alone and logs every event as a timestamped JSON line', async () => {
    const listed = Array.from({ length: 30 }, (_, i) => `${site.origin}/not-in-site/${i}.html`);
    const seeds = path.join(work, 'seeds.txt');
    writeFileSync(seeds, `# bench seeds\n${site.origin}/\n\n${listed.join('\n')}\n`);
    const archive = path.join(work, 'archive');
    const events = path.join(work, 'events.jsonl');
    const r = await runHarvest(['crawl', '--seeds-file', seeds, '--out', archive, '--events-jsonl', events, '--max-depth', '0', '--quiet', '--delay-ms', '0']);
    assert.equal(r.status, 0, r.stderr);

    // The scope comes from one listed URL per host, so the job stays small; every URL was queued.
    assert.deepEqual(readArchiveStats(archive).seeds, [`${site.origin}/`]);
    const byUrl = new Map(listRecords(archive).map((rec) => [rec.url, rec]));
    for (const u of listed) {
      assert.equal(byUrl.get(u)?.depth, 0, u);
      assert.equal(byUrl.get(u)?.httpStatus, 404, u);
    }
    assert.ok(byUrl.get(`${site.origin}/`)?.state === 'archived');

    const lines = readFileSync(events, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as LoggedEvent);
    assert.deepEqual(lines[0] && [lines[0].type, lines[0].type === 'state' && lines[0].state], ['state', 'running']);
    const last = lines.at(-1)!;
    assert.deepEqual([last.type, last.type === 'state' && last.state], ['state', 'finished']);
    assert.ok(lines.some((e) => e.type === 'progress'));
    const fetched = new Set(lines.flatMap((e) => (e.type === 'url' ? [e.url] : [])));
    for (const u of listed) assert.ok(fetched.has(u), `no url event for ${u}`);
    for (let i = 1; i < lines.length; i++) assert.ok(lines[i]!.t >= lines[i - 1]!.t, 'timestamps go forward');
  });

  it('refuses an invalid seed list before creating the archive', async () => {
    const seeds = path.join(work, 'bad.txt');
    writeFileSync(seeds, `${site.origin}/\nmailto:someone@uni.test\n`);
    const r = await runHarvest(['crawl', '--seeds-file', seeds, '--out', path.join(work, 'bad-archive')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^harvest: .*bad\.txt, line 2: 'mailto:someone@uni\.test' is not an http/);
    assert.throws(() => readArchiveStats(path.join(work, 'bad-archive')));
  });
});
