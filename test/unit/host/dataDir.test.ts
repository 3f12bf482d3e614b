import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DataDir, DataDirInUseError, defaultDataDir } from '../../../electron/host/dataDir.js';

describe('data folder', () => {
  it("defaults to the OS's per-user application data folder", () => {
    assert.equal(defaultDataDir({ XDG_DATA_HOME: '/x/data' }, 'linux'), '/x/data/harvest');
    assert.equal(defaultDataDir({}, 'linux'), path.join(os.homedir(), '.local', 'share', 'harvest'));
    assert.equal(defaultDataDir({}, 'darwin'), path.join(os.homedir(), 'Library', 'Application Support', 'Harvest'));
    assert.equal(defaultDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32'), path.join('C:\\Users\\a\\AppData\\Roaming', 'Harvest'));
  });

  it('is locked while open, takes over a lock left by a dead process, and keeps jobs across opens', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'harvest-datadir-'));
    try {
      const first = DataDir.open(dir);
      assert.throws(() => DataDir.open(dir), DataDirInUseError);
      first.saveJobs([{ id: 'a', job: { seeds: ['https://example.org/'] }, archiveDir: '/a', status: 'paused', error: null, createdAt: 't', updatedAt: 't', bytesOnDisk: 3, schedule: null }]);
      first.release();
      // A lock naming a process that no longer exists (pid numbers this large are never handed out).
      writeFileSync(path.join(dir, 'harvest.lock'), '2147483646');
      const second = DataDir.open(dir);
      assert.deepEqual(second.loadJobs().map((j) => [j.id, j.status]), [['a', 'paused']]);
      second.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
