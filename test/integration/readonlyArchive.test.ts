/**
 * A finished archive on read-only storage, copied without the catalogue's -wal and -shm files, and
 * an archive on a disk that stays full: both real filesystems (a tmpfs mounted in a user and mount
 * namespace, `unshare -rm`, so no root is needed), read by `harvest stats` and `harvest list`.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { CLI, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';

const namespaces = spawnSync("unshare", ["-rm", "true"]).status === 0;

/**
 * Runs harvest on a copy of `archive` on a 16 MB tmpfs of its own, its catalogue alone (without
 * side files): made read-only ('readonly') or filled to the last byte ('full') before harvest starts.
 */
function onSmallDisk(archive: string, mount: string, fault: 'readonly' | 'full', args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const script = [
    'set -e',
    'mount -t tmpfs -o size=16m tmpfs "$MNT"',
    // The catalogue alone (what stats and list read), without its side files.
    'mkdir "$MNT/archive"',
    'cp "$SRC/catalogue.sqlite" "$MNT/archive/"',
    fault === 'readonly'
      ? 'mount -o remount,ro "$MNT"'
      : 'dd if=/dev/zero of="$MNT/fill" bs=4096 2>/dev/null || true; dd if=/dev/zero of="$MNT/fill2" bs=512 2>/dev/null || true',
    'set +e',
    'exec "$NODE" "$CLI" "$@"',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-rm', 'sh', '-c', script, 'sh', ...args.map((a) => (a === '@' ? path.join(mount, 'archive') : a))], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MNT: mount, SRC: archive, NODE: process.execPath, CLI },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('an archive on read-only storage or a full disk', { skip: namespaces ? false : 'unshare -rm (user and mount namespaces) is not available' }, () => {
  let work: string;
  let site: BenchSite;
  let archive: string;
  /** The same archive with its catalogue in WAL mode, as archives made before this change were left. */
  let walArchive: string;
  let mount: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-readonly-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
    walArchive = path.join(work, 'wal-archive');
    cpSync(archive, walArchive, { recursive: true });
    const db = new Database(path.join(walArchive, 'catalogue.sqlite'));
    db.pragma('journal_mode = WAL');
    db.close();
    mount = path.join(work, 'mnt');
    mkdirSync(mount);
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a finished crawl leaves no write-ahead log', () => {
    assert.equal(existsSync(path.join(archive, 'catalogue.sqlite-wal')), false);
    const db = new Database(path.join(archive, 'catalogue.sqlite'), { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
    } finally {
      db.close();
    }
  });

  for (const [name, which] of [['a finished archive', () => archive], ['a catalogue left in WAL mode', () => walArchive]] as const) {
    for (const command of ['stats', 'list']) {
      it(`${name} on read-only storage: harvest ${command} reads it`, async () => {
        const r = await onSmallDisk(which(), mount, 'readonly', [command, '@']);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, command === 'stats' ? /\(finished\)/ : /^archived\t200\t/m);
      });
    }
  }

  it('a finished archive on a full disk: harvest stats reads it', async () => {
    const r = await onSmallDisk(archive, mount, 'full', ['stats', '@']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\(finished\)/);
  });

  it('a catalogue left in WAL mode on a full disk: harvest stats names the full disk, not damage', async () => {
    const r = await onSmallDisk(walArchive, mount, 'full', ['stats', '@']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /^harvest: cannot open catalogue .+: the disk holding it is full \(\d+ bytes free\).+the catalogue is not damaged/m);
    assert.doesNotMatch(r.stderr, /disk I\/O error|damaged \(/);
  });
});
