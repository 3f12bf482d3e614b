import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CaptureSummary, ChangeReport } from '../../shared/captures.js';
import type { CrawlStats } from '../../shared/crawl.js';
import { ArchiveFacts } from '../../electron/host/archiveFacts.js';
import { CLI, startBenchSite, stopChild, type BenchSite } from '../helpers/benchSite.js';

/**
 * An archive read while another process crawls it (issue 36, item 11): the crawl holds the writer
 * lock, readers open the catalogue read-only beside it, and a second writer is refused. A SIGKILLed
 * crawl leaves no lock behind.
 */

function harvest(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

/** Waits, polling, until `ready` holds; fails naming `what` after `ms`. */
async function waitFor(what: string, ready: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function htmlFilesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name.endsWith('.html')) n++;
  return n;
}

function statsOf(dir: string): CrawlStats {
  const r = harvest('stats', dir, '--json');
  assert.equal(r.status, 0, `harvest stats exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as CrawlStats;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('reading an archive while another process crawls it', () => {
  let work: string;
  let site: BenchSite;
  let dir: string;
  let crawl: ChildProcess | null = null;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-read-live-'));
    site = await startBenchSite({ pages: 300, workDir: work, latencyMs: 20 });
    dir = path.join(work, 'archive');
  });

  after(async () => {
    if (crawl) await stopChild(crawl);
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('answers stats, captures, changes, search and list with the running figures, and refuses a second writer naming the cause', async () => {
    // One request at a time, 150 ms apart: some 300 pages keep it running for a minute or more.
    crawl = spawn(process.execPath, [CLI, 'crawl', `${site.origin}/`, '--out', dir, '--quiet', '--connections', '1', '--delay-ms', '150'], { stdio: 'ignore' });
    await waitFor('the crawl writing 5 pages into the mirror', () => htmlFilesUnder(path.join(dir, 'mirror')) >= 5);

    const first = statsOf(dir);
    assert.equal(first.state, 'running');
    assert.ok(first.counts.archived >= 1, `archived ${first.counts.archived}`);
    assert.ok(first.counts.discovered > first.counts.archived, `discovered ${first.counts.discovered}, archived ${first.counts.archived}`);
    assert.equal(first.seeds[0], `${site.origin}/`);

    // Each reader sees the crawl's later commits, not a snapshot of when it first looked.
    let later = first;
    await waitFor('stats showing more pages archived', () => {
      later = statsOf(dir);
      return later.counts.archived > first.counts.archived;
    });
    assert.equal(later.state, 'running');

    // The app's Library and job screens, for a crawl another process runs, read the same way.
    const facts = new ArchiveFacts();
    facts.read('live', dir);
    const seen = facts.get('live')!;
    assert.equal(seen.capture, 1);
    assert.ok(seen.counts !== null && seen.counts.archived >= first.counts.archived, `the app read ${JSON.stringify(seen.counts)}`);

    const captures = harvest('captures', dir, '--json');
    assert.equal(captures.status, 0, captures.stderr);
    const list = JSON.parse(captures.stdout) as CaptureSummary[];
    assert.equal(list.length, 1);
    assert.equal(list[0]!.id, 1);
    assert.equal(list[0]!.state, 'running');
    assert.ok(list[0]!.counts.new >= 1, `new ${list[0]!.counts.new}`);

    const changes = harvest('changes', dir, '--json');
    assert.equal(changes.status, 0, changes.stderr);
    assert.ok((JSON.parse(changes.stdout) as ChangeReport).new.includes(`${site.origin}/`), 'the seed is new in capture 1');

    // The full-text index (its own SQLite file) is read beside the crawl's writers too, once they made it.
    await waitFor('a search of the running crawl finding its pages', () => {
      const r = harvest('search', dir, 'northfield', '--json');
      if (r.status !== 0) {
        assert.match(r.stderr, /has no search index yet/, `harvest search exited ${r.status}`);
        return false;
      }
      return (JSON.parse(r.stdout) as { total: number }).total >= 1;
    });

    const urls = harvest('list', dir, '--json');
    assert.equal(urls.status, 0, urls.stderr);
    assert.ok(urls.stdout.includes(`"url":"${site.origin}/"`), 'the seed is listed');

    // A second writer of any kind is refused, in one line that says why.
    for (const args of [['resume', dir], ['metadata', dir, '--set', 'title=x']]) {
      const r = harvest(...args);
      assert.equal(r.status, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0]!, /^harvest: .*(already being written by another process \(a crawl|in use by a running crawl)/);
    }
    // An export needs the archive to hold still.
    const exported = harvest('export', dir, '--format', 'zip', '--out', path.join(work, 'live.zip'));
    assert.equal(exported.status, 2, exported.stderr);
    assert.match(exported.stderr, /already being written by another process/);
    assert.ok(!existsSync(path.join(work, 'live.zip')));
    assert.equal(crawl.exitCode, null, 'the crawl was still running throughout');
  });

  it('leaves no lock behind when the crawl is SIGKILLed: a new writer takes the archive and finishes it', async () => {
    assert.ok(crawl, 'the crawl of the test before');
    crawl.kill('SIGKILL');
    await exited(crawl);
    crawl = null;
    const killed = statsOf(dir);
    assert.equal(killed.state, 'running', 'a killed crawl is left as it was (resume tells it apart)');

    // No crawl holds it now, so the change is written into the job; then resume takes it.
    const control = harvest('control', dir, '--delay-ms', '0', '--connections', '4');
    assert.equal(control.status, 0, control.stderr);
    assert.match(control.stdout, /no crawl is running/);
    const resumed = harvest('resume', dir, '--quiet');
    assert.equal(resumed.status, 0, resumed.stderr);
    const done = statsOf(dir);
    assert.equal(done.state, 'finished');
    assert.ok(done.counts.archived > killed.counts.archived, `archived ${done.counts.archived} after, ${killed.counts.archived} before`);
    assert.equal(done.counts.queued, 0);
  });
});
