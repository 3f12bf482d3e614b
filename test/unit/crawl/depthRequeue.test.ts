import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseJob } from '../../../shared/job.js';
import { Frontier, type Discovery } from '../../../electron/engine/crawl/frontier.js';
import { ProgressMeter } from '../../../electron/engine/crawl/progress.js';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-depth-requeue-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const page = (url: string, parentDepth: number): Discovery => ({
  url,
  parentId: 1,
  parentDepth,
  sameDepth: false,
  via: 'a',
  requisite: false,
  parentInScope: true,
  typeHint: 'html',
  redirectHops: 0,
});

describe('Frontier: a URL skipped as too deep', () => {
  it('is queued again, at the shallower depth, when it turns up closer to the seed', () => {
    const catalogue = Catalogue.open(path.join(dir, 'c.sqlite'));
    try {
      const meter = new ProgressMeter(catalogue.countByState(), {}, 0);
      const queued: string[] = [];
      const frontier = new Frontier(parseJob({ seeds: ['https://www.uni.test/'], limits: { maxDepth: 2 } }), catalogue, meter, (s) => queued.push(s));
      const url = 'https://www.uni.test/people/staff.html';
      const deep = frontier.admit(page(url, 2));
      assert.deepEqual([deep.state, deep.skip_reason, deep.depth], ['skipped', 'limit:depth', 3]);
      assert.equal(meter.counts.skipped, 1);

      const shallow = frontier.admit(page(url, 0));
      assert.equal(shallow.id, deep.id);
      assert.deepEqual([shallow.state, shallow.skip_reason, shallow.depth], ['queued', null, 1]);
      assert.deepEqual(catalogue.nextQueued('https://www.uni.test', 10).map((r) => [r.url, r.depth]), [[url, 1]]);
      assert.equal(meter.counts.skipped, 0);
      assert.equal(meter.counts.queued, 1);
      assert.deepEqual(queued, ['https://www.uni.test']);

      // Still too deep the second time: it stays skipped.
      const other = 'https://www.uni.test/people/alumni.html';
      frontier.admit(page(other, 2));
      assert.equal(frontier.admit(page(other, 2)).state, 'skipped');
    } finally {
      catalogue.close();
    }
  });
});
