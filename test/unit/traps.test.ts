import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { SkipReason } from '../../shared/crawl.js';
import { parseJob, TrapGuardsSchema } from '../../shared/job.js';
import { queryVariantKey, trapReason } from '../../electron/engine/traps.js';
import { Frontier } from '../../electron/engine/crawl/frontier.js';
import { ProgressMeter } from '../../electron/engine/crawl/progress.js';
import { Catalogue } from '../../electron/engine/store/catalogue.js';
import { canonicalize } from '../../electron/engine/url/canonical.js';

const defaults = TrapGuardsSchema.parse({});

function canonical(url: string): string {
  const c = canonicalize(url);
  assert.ok(c, url);
  return c;
}

/** Follows a generator of ever-growing URLs until a guard trips; returns the step and reason. */
function firstTrap(urlAt: (step: number) => string, limit = 10_000): { step: number; url: string; reason: SkipReason } {
  for (let step = 1; step <= limit; step++) {
    const url = canonical(urlAt(step));
    const reason = trapReason(url, defaults);
    if (reason !== null) return { step, url, reason };
  }
  assert.fail('no guard tripped');
}

describe('trapReason', () => {
  it('lets ordinary URLs through with the default guards', () => {
    for (const url of [
      'http://example.org/',
      'http://example.org/news/2024/01/01/item.html',
      'http://example.org/collections/catalogue/?page=3&sort=asc',
      'http://example.org/a/b/c/d/e/f/g/h/i/j/k/l/m/n/',
      'http://example.org/events/calendar?month=2024-01',
      'http://example.org/search?q=archive&p=1&p=2',
    ]) {
      assert.equal(trapReason(canonical(url), defaults), null, url);
    }
  });

  it('stops an endless /deep/1/2/3/... path by its slashes', () => {
    const trap = firstTrap((n) => 'http://example.org/deep/' + Array.from({ length: n }, (_, i) => i + 1).join('/') + '/');
    assert.equal(trap.reason, 'trap:path-slashes');
    assert.equal(new URL(trap.url).pathname.split('/').length - 1, defaults.maxPathSlashes + 1);
  });

  it('stops a repeating /a/b/a/b/... path by its repeated segments', () => {
    const trap = firstTrap((n) => 'http://example.org/' + Array.from({ length: n }, (_, i) => (i % 2 ? 'b' : 'a')).join('/'));
    assert.equal(trap.reason, 'trap:segment-repeats');
    const segments = new URL(trap.url).pathname.split('/').filter((s) => s === 'a');
    assert.equal(segments.length, defaults.maxSegmentRepeats + 1);
  });

  it('stops a self-lengthening query by its parameter count', () => {
    const trap = firstTrap(
      (n) => 'http://example.org/search?q=archive&' + Array.from({ length: n }, (_, i) => `p=${i + 1}`).join('&'),
    );
    assert.equal(trap.reason, 'trap:query-params');
    assert.equal(new URL(trap.url).searchParams.size, defaults.maxQueryParams + 1);
  });

  it('stops an over-long URL by its length', () => {
    const prefix = 'http://example.org/';
    const atLimit = prefix + 'x'.repeat(defaults.maxUrlLength - prefix.length);
    assert.equal(trapReason(atLimit, defaults), null);
    assert.equal(trapReason(atLimit + 'x', defaults), 'trap:url-length');
  });

  it('ignores empty query parameters and empty path segments when counting', () => {
    const guards = TrapGuardsSchema.parse({ maxQueryParams: 2, maxSegmentRepeats: 1 });
    assert.equal(trapReason('http://example.org/?a=1&&&b=2&', guards), null);
    assert.equal(trapReason('http://example.org/?a=1&b=2&c=3', guards), 'trap:query-params');
    assert.equal(trapReason('http://example.org/a//b/', guards), null);
    assert.equal(trapReason('http://example.org/a/b/a', guards), 'trap:segment-repeats');
  });

  it('honours custom guards', () => {
    const guards = TrapGuardsSchema.parse({ maxUrlLength: 30, maxPathSlashes: 2 });
    assert.equal(trapReason('http://example.org/a/b', guards), null);
    assert.equal(trapReason('http://example.org/a/b/c', guards), 'trap:path-slashes');
    assert.equal(trapReason('http://example.org/abcdefghijklmn', guards), 'trap:url-length');
  });
});

describe('queryVariantKey', () => {
  it('is null without a query', () => {
    assert.equal(queryVariantKey('http://example.org/events/calendar'), null);
  });

  it('is the URL without its query', () => {
    const key = queryVariantKey('http://example.org/events/calendar?month=2024-01');
    assert.ok(key && !key.includes('?'));
    assert.equal(canonicalize(key), key);
    assert.notEqual(key, queryVariantKey('http://example.org/events/list?month=2024-01'));
  });

  it('lets the frontier catch an infinite calendar the stateless guards let through, at the limit plus one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'harvest-calendar-'));
    const catalogue = Catalogue.open(path.join(dir, 'c.sqlite'));
    try {
      const job = parseJob({ seeds: ['http://example.org/'] });
      const frontier = new Frontier(job, catalogue, new ProgressMeter(catalogue.countByState(), {}, 0), () => {});
      const month = (i: number): string => `${2000 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
      const admit = (url: string) =>
        frontier.admit({ url, parentId: 1, parentDepth: 0, sameDepth: false, via: 'a', requisite: false, parentInScope: true, typeHint: 'html', redirectHops: 0 });
      const reasons: (string | null)[] = [];
      for (let i = 0; i < job.traps.maxQueryVariantsPerPath + 3; i++) {
        const url = canonical(`http://example.org/events/calendar?month=${month(i)}`);
        assert.equal(trapReason(url, job.traps), null, 'no stateless guard sees it');
        reasons.push(admit(url).skip_reason);
      }
      const limit = job.traps.maxQueryVariantsPerPath;
      assert.deepEqual(reasons.slice(0, limit), new Array(limit).fill(null));
      assert.deepEqual(reasons.slice(limit), ['trap:query-variants', 'trap:query-variants', 'trap:query-variants']);
      // Another path keeps its own count, and a variant met again is not a new one.
      assert.equal(admit(canonical('http://example.org/events/list?month=2000-01')).skip_reason, null);
      assert.equal(admit(canonical(`http://example.org/events/calendar?month=${month(0)}`)).state, 'queued');
    } finally {
      catalogue.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
