import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EventLog, type LoggedEvent } from '../../../electron/cli/eventLog.js';
import { countsFromStates } from '../../../shared/crawl.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-eventlog-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('event log', () => {
  it('appends each event as one JSON line stamped with its time', async () => {
    const file = path.join(dir, 'events.jsonl');
    writeFileSync(file, '{"t":1,"type":"state","state":"running"}\n');
    const log = new EventLog(file);
    const counts = countsFromStates(
      { queued: 3, archived: 2, redirect: 0, 'http-error': 0, failed: 0, skipped: 1 },
      { scope: 1 },
      2048,
    );
    log.write({ type: 'progress', counts, urlsPerSec: 4, kbPerSec: 1, elapsedMs: 250, current: ['http://a.test/x'] }, 1000);
    log.write({ type: 'url', url: 'http://a.test/x', state: 'archived', httpStatus: 200 }, 1250);
    log.write({ type: 'state', state: 'paused' }, 1300);
    await log.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as LoggedEvent);
    assert.deepEqual(
      lines.map((e) => [e.t, e.type]),
      [
        [1, 'state'],
        [1000, 'progress'],
        [1250, 'url'],
        [1300, 'state'],
      ],
    );
    const progress = lines[1]!;
    assert.equal(progress.type === 'progress' && progress.counts.archived, 2);
  });

  it('fails at once on a path it cannot open', () => {
    assert.throws(() => new EventLog(path.join(dir, 'no-such-dir', 'events.jsonl')), /ENOENT/);
  });
});
