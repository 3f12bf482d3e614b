import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LoggedEvent } from '../../electron/cli/eventLog.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';

describe('the finishing rewrite pass reports progress', () => {
  let work: string;
  let site: BenchSite;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-finalize-'));
    site = await startBenchSite({ pages: 150, workDir: work });
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('emits progress events naming the pass, from its start to its end, before the crawl finishes', async () => {
    const archive = path.join(work, 'archive');
    const events = path.join(work, 'events.jsonl');
    const r = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--events-jsonl', events, '--quiet', '--delay-ms', '0']);
    assert.equal(r.status, 0, r.stderr);

    const lines = readFileSync(events, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as LoggedEvent);
    const finishing = lines.flatMap((e) => (e.type === 'progress' && e.finishing ? [e.finishing] : []));
    assert.ok(finishing.length >= 2, `${finishing.length} progress events during the pass`);
    const total = finishing[0]!.total;
    assert.ok(total > 0, 'URLs to check');
    assert.deepEqual(finishing[0], { done: 0, total });
    assert.ok(finishing.some((f) => f.done === total));
    for (let i = 1; i < finishing.length; i++) {
      assert.equal(finishing[i]!.total, total);
      assert.ok(finishing[i]!.done >= finishing[i - 1]!.done, 'the pass only moves forward');
    }
    const firstFinishing = lines.findIndex((e) => e.type === 'progress' && e.finishing !== undefined);
    const finished = lines.findIndex((e) => e.type === 'state' && e.state === 'finished');
    assert.ok(firstFinishing >= 0 && firstFinishing < finished);
  });
});
