import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { CLI, stopChild } from '../helpers/benchSite.js';

/** Runs `harvest serve` until its output has `until`, then stops it with SIGTERM; returns all it printed. */
async function serveUntil(args: string[], until: RegExp): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${until} in: ${out}`)), 30_000);
    child.stdout.on('data', () => until.test(out) && (clearTimeout(timer), resolve()));
  });
  await stopChild(child);
  return out;
}

describe('harvest serve --open', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-serve-open-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('adds an archive folder on disk to the library once, and refuses what is not an archive', async () => {
    const dir = path.join(work, 'kept-archive');
    Archive.create(dir, parseJob({ name: 'Kept', seeds: ['http://127.0.0.1:9/'] })).close();
    const dataDir = path.join(work, 'data');
    const first = await serveUntil(['--data-dir', dataDir, '--open', dir], /open http/);
    assert.match(first, new RegExp(`library: added ${dir} \\('Kept'\\)`));
    const jobs = (JSON.parse(readFileSync(path.join(dataDir, 'jobs.json'), 'utf8')) as { jobs: { archiveDir: string; status: string }[] }).jobs;
    assert.deepEqual(jobs.map((j) => [j.archiveDir, j.status]), [[dir, 'new']]);
    const again = await serveUntil(['--data-dir', dataDir, '--open', dir], /open http/);
    assert.match(again, /already in the library as 'Kept'/);

    const plain = path.join(work, 'plain');
    mkdirSync(plain);
    const bad = spawnSync(process.execPath, [CLI, 'serve', '--data-dir', dataDir, '--open', plain], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--open .*plain: .*not a Harvest archive/);
  });
});
