import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

  it('turns down a FIFO or a link named control.json without waiting on it, and removes it', { skip: process.platform === 'win32' }, () => {
    const fifo = path.join(dir, CONTROL_FILE);
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for reading blocks the whole process until a writer comes, so it is taken in a
    // child, which is ended if it hangs.
    const module = pathToFileURL(path.resolve(import.meta.dirname, '../../../electron/engine/crawl/liveControl.js')).href;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', `const { takeControl } = await import(${JSON.stringify(module)}); console.log(JSON.stringify(takeControl(${JSON.stringify(dir)})));`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(child.signal, null, 'taking the request hung on the FIFO');
    assert.deepEqual(JSON.parse(child.stdout), { error: `${CONTROL_FILE} is not a regular file` });
    assert.equal(existsSync(fifo), false);
    writeFileSync(path.join(dir, 'elsewhere.json'), '{"perHostConnections": 6}');
    symlinkSync(path.join(dir, 'elsewhere.json'), fifo);
    assert.deepEqual(takeControl(dir), { error: `${CONTROL_FILE} is not a regular file` });
    assert.equal(existsSync(path.join(dir, 'elsewhere.json')), true);
  });

  it('changes only what was given', () => {
    const job = parseJob({ name: 'x', seeds: ['http://127.0.0.1:1/'], politeness: { perHostConnections: 2, delayMs: 500 } });
    assert.deepEqual(applyControl(job, { perHostConnections: 6 }), { ...job.politeness, perHostConnections: 6, delayMs: 500 });
    assert.deepEqual(applyControl(job, { delayMs: null }), { ...job.politeness, delayMs: null });
    assert.equal(describePoliteness(applyControl(job, { perHostConnections: 1, delayMs: null })), '1 connection per host, adaptive delay');
  });
});
