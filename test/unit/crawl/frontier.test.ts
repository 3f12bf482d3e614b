import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { parseJob, type JobInput } from '../../../shared/job.js';
import { Frontier, type Discovery } from '../../../electron/engine/crawl/frontier.js';
import { ProgressMeter } from '../../../electron/engine/crawl/progress.js';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-frontier-'));
let n = 0;

function setup(job: Partial<JobInput> = {}) {
  const catalogue = Catalogue.open(path.join(dir, `f${n++}.sqlite`));
  const meter = new ProgressMeter(catalogue.countByState(), {}, 0);
  const queuedSites: string[] = [];
  const frontier = new Frontier(
    parseJob({ seeds: ['https://www.uni.test/library/'], ...job }),
    catalogue,
    meter,
    (site) => queuedSites.push(site),
  );
  return { catalogue, meter, frontier, queuedSites };
}

function link(url: string, extra: Partial<Discovery> = {}): Discovery {
  return {
    url,
    parentId: 1,
    parentDepth: 0,
    sameDepth: false,
    via: 'a',
    requisite: false,
    parentInScope: true,
    typeHint: 'html',
    redirectHops: 0,
    ...extra,
  };
}

describe('Frontier admission', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => {
    ctx = setup();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('queues in-scope URLs one level deeper than their parent, once', () => {
    const a = ctx.frontier.admit(link('https://www.uni.test/about/'));
    const again = ctx.frontier.admit(link('https://www.uni.test/about/', { parentDepth: 5 }));
    assert.equal(a.state, 'queued');
    assert.equal(a.depth, 1);
    assert.equal(again.id, a.id);
    assert.equal(again.depth, 1);
    assert.deepEqual(ctx.queuedSites, ['https://www.uni.test']);
    assert.equal(ctx.meter.counts.discovered, 1);
  });

  it('skips out-of-scope pages but fetches offsite requisites', () => {
    assert.equal(ctx.frontier.admit(link('https://other.test/page.html')).skip_reason, 'scope');
    const img = ctx.frontier.admit(link('https://cdn.other.test/logo.png', { requisite: true, via: 'img', typeHint: null }));
    assert.equal(img.state, 'queued');
    assert.equal(img.requisite, 1);
  });

  it('does not follow frames out of an offsite document', () => {
    const frame = link('https://ads.other.test/frame.html', { requisite: true, via: 'iframe', parentInScope: false });
    assert.equal(ctx.frontier.admit(frame).skip_reason, 'scope');
  });

  it('records trap guards as skip reasons', () => {
    assert.equal(ctx.frontier.admit(link(`https://www.uni.test/${'x'.repeat(3000)}`)).skip_reason, 'trap:url-length');
    assert.equal(ctx.frontier.admit(link('https://www.uni.test/a/b/a/b/a/b/a/b/')).skip_reason, 'trap:segment-repeats');
  });

  it('stops a path that keeps producing query strings', () => {
    const c = setup({ traps: { maxQueryVariantsPerPath: 3 } });
    const states = [1, 2, 3, 4, 5].map(
      (m) => c.frontier.admit(link(`https://www.uni.test/events/calendar?month=2024-0${m}`)).skip_reason,
    );
    assert.deepEqual(states, [null, null, null, 'trap:query-variants', 'trap:query-variants']);
  });

  it('applies the depth limit to pages but not to requisites', () => {
    const c = setup({ limits: { maxDepth: 1 } });
    assert.equal(c.frontier.admit(link('https://www.uni.test/deep.html', { parentDepth: 1 })).skip_reason, 'limit:depth');
    const css = link('https://www.uni.test/deep.css', { parentDepth: 1, requisite: true, via: 'link', typeHint: 'css' });
    assert.equal(c.frontier.admit(css).state, 'queued');
  });

  it('takes the target of a seed redirect into the scope, also after a resume', () => {
    const moved = 'https://library.uni.test/';
    assert.equal(ctx.frontier.scope.inScope(moved), false);
    ctx.frontier.followSeedRedirect(moved);
    assert.equal(ctx.frontier.admit(link('https://library.uni.test/catalogue/')).state, 'queued');
    const resumed = new Frontier(parseJob({ seeds: ['https://www.uni.test/library/'] }), ctx.catalogue, ctx.meter, () => {});
    assert.equal(resumed.scope.inScope('https://library.uni.test/opening-hours.html'), true);
    assert.equal(resumed.scope.inScope('https://elsewhere.test/'), false);
  });

  it('requeues a URL skipped as out of scope when it turns up as a requisite', () => {
    const asPage = ctx.frontier.admit(link('https://cdn.other.test/banner.jpg'));
    assert.equal(asPage.skip_reason, 'scope');
    const asImage = ctx.frontier.admit(link('https://cdn.other.test/banner.jpg', { requisite: true, via: 'img' }));
    assert.equal(asImage.id, asPage.id);
    assert.equal(asImage.state, 'queued');
    assert.equal(ctx.catalogue.lookup('https://cdn.other.test/banner.jpg')?.state, 'queued');
    assert.equal(ctx.meter.counts.skipped, 0);
    assert.equal(ctx.meter.counts.queued, 1);
    assert.equal(ctx.catalogue.nextQueued('https://cdn.other.test', 5).length, 1);
  });

  it('records a link past the per-page cap as skipped, keeps scope reasons first, and queues it when another page links it under the cap', () => {
    const url = 'https://www.uni.test/far/down.html';
    const capped = ctx.frontier.admit(link(url, { pastLinkCap: true }));
    assert.equal(capped.state, 'skipped');
    assert.equal(capped.skip_reason, 'limit:links-per-page');
    assert.equal(ctx.frontier.admit(link('https://other.test/x.html', { pastLinkCap: true })).skip_reason, 'scope');
    assert.equal(ctx.frontier.admit(link(url, { pastLinkCap: true })).state, 'skipped', 'met again past a cap: still skipped');
    const requeued = ctx.frontier.admit(link(url));
    assert.equal(requeued.id, capped.id);
    assert.equal(requeued.state, 'queued');
    assert.equal(ctx.meter.counts.skippedByReason['limit:links-per-page'], 0);
    assert.equal(ctx.meter.counts.queued, 1);
  });
});
