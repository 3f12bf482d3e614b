import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  countsSentence,
  formatByteRate,
  formatBytes,
  formatClock,
  formatCount,
  formatDate,
  formatDuration,
  formatEta,
  formatPercentOfKnown,
  plural,
  progressFigures,
} from '../../shared/format.js';
import { counts } from './helpers/fixtures.js';

describe('one vocabulary: sizes, plurals, durations, dates', () => {
  it('writes sizes in decimal SI units everywhere', () => {
    assert.equal(formatBytes(0), '0 bytes');
    assert.equal(formatBytes(1), '1 byte');
    assert.equal(formatBytes(999), '999 bytes');
    assert.equal(formatBytes(1000), '1.0 kB');
    assert.equal(formatBytes(4096), '4.1 kB');
    assert.equal(formatBytes(99_949), '99.9 kB');
    assert.equal(formatBytes(99_950), '100 kB');
    assert.equal(formatBytes(999_499), '999 kB');
    assert.equal(formatBytes(999_500), '1.0 MB');
    assert.equal(formatBytes(3 * 1024 * 1024), '3.1 MB');
    assert.equal(formatBytes(123_456_789), '123 MB');
    assert.equal(formatBytes(1.5e9), '1.5 GB');
    assert.equal(formatByteRate(524_288), '524 kB/s');
  });

  it('gets plurals right', () => {
    assert.equal(plural(0, 'page'), '0 pages');
    assert.equal(plural(1, 'page'), '1 page');
    assert.equal(plural(2, 'page'), '2 pages');
    assert.equal(plural(1234, 'URL'), '1,234 URLs');
    assert.equal(plural(1, 'query', 'queries'), '1 query');
    assert.equal(plural(3, 'query', 'queries'), '3 queries');
  });

  it('groups the thousands of whole numbers with commas, whatever the locale', () => {
    assert.deepEqual(
      [0, 7, 999, 1000, 12_345, 999_999, 1_234_567, 1_000_000_000, 1234.6, -1234, -999].map(formatCount),
      ['0', '7', '999', '1,000', '12,345', '999,999', '1,234,567', '1,000,000,000', '1,235', '-1,234', '-999'],
    );
  });

  it('says durations as a clock and in words', () => {
    assert.equal(formatClock(7_000), '0:07');
    assert.equal(formatClock(125_000), '2:05');
    assert.equal(formatClock(3_723_000), '1:02:03');
    assert.equal(formatDuration(400), 'less than a second');
    assert.equal(formatDuration(45_000), '45 s');
    assert.equal(formatDuration(200_000), '3 min 20 s');
    assert.equal(formatDuration(7_500_000), '2 h 5 min');
    assert.equal(formatDuration(90_000_000), '1 d 1 h');
  });

  it('writes dates in the given locale with the time zone named', () => {
    const iso = '2026-11-25T18:17:00.000Z';
    assert.equal(formatDate(iso, { locale: 'en-GB', timeZone: 'UTC' }), '25 Nov 2026, 18:17 UTC');
    assert.match(formatDate(iso, { locale: 'en-US', timeZone: 'America/New_York' }), /^Nov 25, 2026, 1:17\sPM EST$/);
    assert.equal(formatDate(null), '—');
    assert.equal(formatDate('not a date'), 'not a date');
  });

  it('puts the outcome counts in words with their plurals', () => {
    assert.equal(
      countsSentence(counts({ archived: 120, redirects: 1, httpErrors: 2, failed: 1, skipped: 40, bytes: 12_345_678 })),
      '120 archived, 1 redirect, 2 HTTP errors, 1 failed, 40 skipped; 12.3 MB received',
    );
    assert.match(countsSentence(counts({ queued: 3, inFlight: 2 })), /, 5 queued;/);
  });
});

describe('progress figures: percentage of what is known, ETA', () => {
  it('counts fetched and remaining the same way as the CLI and the app', () => {
    const f = progressFigures(counts({ archived: 70, redirects: 5, httpErrors: 3, failed: 2, queued: 15, inFlight: 5 }), 10, 60_000);
    assert.equal(f.fetched, 80);
    assert.equal(f.remaining, 20);
    assert.equal(f.percent, 80);
    assert.equal(f.etaMs, 2_000);
    assert.equal(formatPercentOfKnown(f), '80% of the 100 URLs found so far');
  });

  it('never says 100% while anything remains, and says 100% when done', () => {
    assert.equal(progressFigures(counts({ archived: 9_999, queued: 1 }), 1, 10_000).percent, 99);
    const done = progressFigures(counts({ archived: 10 }), 0, 10_000);
    assert.equal(done.percent, 100);
    assert.equal(done.etaMs, 0);
    assert.equal(progressFigures(counts(), 0, 0).percent, 0);
  });

  it('gives no ETA before there is a rate, or in the first seconds', () => {
    assert.equal(progressFigures(counts({ archived: 5, queued: 5 }), 0, 60_000).etaMs, null);
    assert.equal(progressFigures(counts({ archived: 5, queued: 5 }), 5, 1_000).etaMs, null);
    assert.equal(formatEta(null), 'estimating time left…');
  });

  it('rounds the time left as a person would say it', () => {
    assert.equal(formatEta(500), 'less than a second left');
    assert.equal(formatEta(45_000), 'about 45 s left');
    assert.equal(formatEta(75_000), 'about 1 min left');
    assert.equal(formatEta(117_000), 'about 2 min left');
    assert.equal(formatEta(155_000), 'about 3 min left');
    assert.equal(formatEta(2 * 3600_000 + 5 * 60_000), 'about 2 h 5 min left');
  });
});
