import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../../shared/job.js';
import { applyControl, describePoliteness, requestControl, takeControl } from '../../../electron/engine/crawl/liveControl.js';
import { CONTROL_FILE, isHarvestEntry } from '../../../electron/engine/store/archiveFolder.js';

describe('live politeness control', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-control-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hands a request over through the archive folder once, whole', () => {
    assert.equal(takeControl(dir), null, 'nothing asked');
    requestControl(dir, { perHostConnections: 6 });
    assert.ok(existsSync(path.join(dir, CONTROL_FILE)));
    assert.deepEqual(takeControl(dir), { perHostConnections: 6 });
    assert.equal(takeControl(dir), null, 'taken once');
    assert.ok(isHarvestEntry(CONTROL_FILE), "deleting an archive may remove it: it is Harvest's own");
  });

  it('refuses a malformed request, naming what is wrong, and removes it', () => {
    writeFileSync(path.join(dir, CONTROL_FILE), '{"perHostConnections": 0}');
    const r = takeControl(dir);
    assert.ok(r !== null && 'error' in r && /perHostConnections/.test(r.error), JSON.stringify(r));
    writeFileSync(path.join(dir, CONTROL_FILE), 'not json');
    assert.deepEqual(takeControl(dir), { error: `${CONTROL_FILE} is not JSON` });
    writeFileSync(path.join(dir, CONTROL_FILE), '{}');
    assert.match((takeControl(dir) as { error: string }).error, /give connections, a delay, or both/);
    assert.equal(existsSync(path.join(dir, CONTROL_FILE)), false);
    assert.throws(() => requestControl(dir, { perHostConnections: 65 }), /65|64/);
  });

  it('changes only what was given', () => {
    const job = parseJob({ name: 'x', seeds: ['http://127.0.0.1:1/'], politeness: { perHostConnections: 2, delayMs: 500 } });
    assert.deepEqual(applyControl(job, { perHostConnections: 6 }), { ...job.politeness, perHostConnections: 6, delayMs: 500 });
    assert.deepEqual(applyControl(job, { delayMs: null }), { ...job.politeness, delayMs: null });
    assert.equal(describePoliteness(applyControl(job, { perHostConnections: 1, delayMs: null })), '1 connection per host, adaptive delay');
  });
});
