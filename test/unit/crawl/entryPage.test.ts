import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readableDate } from '../../../electron/engine/crawl/entryPage.js';

// The reader's zone must not show: the page on disk says UTC.
process.env.TZ = 'America/New_York';

describe("the entry page's dates", () => {
  it('writes a long English date in UTC, whatever the zone it is written in', () => {
    assert.equal(readableDate('2026-11-05T06:07:00Z'), '5 November 2026 at 06:07 UTC');
    assert.equal(readableDate('2027-01-31T23:59:59.999Z'), '31 January 2027 at 23:59 UTC');
    assert.equal(readableDate('2026-07-14T12:30:00+02:00'), '14 July 2026 at 10:30 UTC');
  });

  it('says when there is no date yet, and keeps what is not a date as it was', () => {
    assert.equal(readableDate(null), 'not yet');
    assert.equal(readableDate('sometime'), 'sometime');
  });
});
