import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { UrlRecord } from '../../shared/crawl.js';
import { CLI, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { assertTilesFile, readRaw } from '../helpers/warcReadBack.js';

const KILLS = 4;

function listArchive(dir: string): Map<string, string> {
  const out = spawnSync(process.execPath, [CLI, 'list', dir, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(out.status, 0, out.stderr);
  const m = new Map<string, string>();
  for (const line of out.stdout.trim().split('\n')) {
    const r = JSON.parse(line) as UrlRecord;
    m.set(r.url, JSON.stringify([r.state, r.httpStatus, r.localPath, r.redirectTo, r.skipReason]));
  }
  return m;
}

function hashTree(root: string): Map<string, string> {
  const m = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else m.set(path.relative(root, abs), createHash('sha256').update(readFileSync(abs)).digest('hex'));
    }
  };
  walk(root);
  return m;
}

/**
 * Runs `harvest <args>` and SIGKILLs it `killAfterMs` after its crawl has begun (its progress line
 * appears); resolves with the exit code, null if killed.
 */
function runAndKill(args: string[], killAfterMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let timer: NodeJS.Timeout | null = null;
    child.stderr!.on('data', () => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.once('exit', (code) => {
      if (timer) clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('a crawl killed with SIGKILL at random moments', () => {
  let work: string;
  let site: BenchSite;
  let trapPatterns: RegExp[];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-crash-'));
    site = await startBenchSite({ pages: 200, workDir: work, latencyMs: 3 });
    trapPatterns = site.manifest.traps.map((t) => new RegExp(t.pattern));
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  // Where exactly an infinite trap is cut depends on which of two concurrent requests finished first,
  // so trap URLs are compared by reason only (they are skipped or archived in both runs alike).
  const isTrap = (url: string) => trapPatterns.some((re) => re.test(new URL(url).pathname + new URL(url).search));

  it('resumes to the same archive as an uninterrupted crawl, re-fetching only what was in flight', async () => {
    const reference = path.join(work, 'reference');
    const t0 = Date.now();
    const ref = spawnSync(process.execPath, [CLI, 'crawl', `${site.origin}/`, '--out', reference, '--quiet', '--delay-ms', '0'], {
      encoding: 'utf8',
    });
    assert.equal(ref.status, 0, ref.stderr);
    const referenceMs = Date.now() - t0;

    await fetch(`${site.origin}/__stats/reset`, { method: 'POST' });
    const killed = path.join(work, 'killed');
    let kills = 0;
    let code = await runAndKill(['crawl', `${site.origin}/`, '--out', killed, '--delay-ms', '0'], Math.random() * (referenceMs / KILLS));
    if (code === null) kills++;
    while (code !== 0) {
      assert.ok(code === null, `resume exited with ${code}`);
      const killAfter = kills < KILLS ? Math.random() * (referenceMs / KILLS) : 600_000;
      code = await runAndKill(['resume', killed], killAfter);
      if (code === null) kills++;
    }
    assert.ok(kills >= 1, 'the crawl finished before it could be killed');

    const a = listArchive(reference);
    const b = listArchive(killed);
    const nonTrap = (m: Map<string, string>) => new Map([...m].filter(([url]) => !isTrap(url)));
    assert.deepEqual(nonTrap(b), nonTrap(a));

    const filesA = hashTree(path.join(reference, 'mirror'));
    const filesB = hashTree(path.join(killed, 'mirror'));
    const comparable = (m: Map<string, string>) =>
      new Map([...m].filter(([f]) => f !== 'index.html' && !/(calendar|search|\/a\/b\/|\/deep\/)/.test(f)));
    assert.deepEqual(comparable(filesB), comparable(filesA));
    assert.ok(![...filesB.keys()].some((f) => f.endsWith('.tmp')), 'a temporary file was left behind');

    // The search index has every page's text: those the document workers had not committed at a
    // kill were indexed from the archive when the crawl completed.
    const indexed = (dir: string) => {
      const db = new Database(path.join(dir, 'text.sqlite'), { readonly: true });
      try {
        return (db.prepare('SELECT url FROM text_docs').pluck().all() as string[]).filter((u) => !isTrap(u)).sort();
      } finally {
        db.close();
      }
    };
    const indexedA = indexed(reference);
    assert.ok(indexedA.length > 100, `${indexedA.length} texts in the reference index`);
    assert.deepEqual(indexed(killed), indexedA);

    // Every WARC record survived the kills whole: a torn tail was cut on resume, not left behind.
    const warcDir = path.join(killed, 'warc');
    const warcs = readdirSync(warcDir).filter((f) => f.endsWith('.warc.gz'));
    assert.ok(warcs.length >= 1);
    const fetchedUrls = new Set<string>();
    for (const f of warcs) {
      const records = await readRaw(path.join(warcDir, f));
      assertTilesFile(records, path.join(warcDir, f));
      for (const r of records) if (r.type === 'response' || r.type === 'revisit') fetchedUrls.add(r.header('WARC-Target-URI')!);
    }
    for (const [url, entry] of b) {
      const state = (JSON.parse(entry) as unknown[])[0];
      if (state === 'archived') assert.ok(fetchedUrls.has(url), `no WARC record for ${url}`);
    }

    const stats = (await site.stats()) as { duplicateRequests: number };
    // Each kill may cost the URLs in flight at that moment: requests on the wire (2 connections),
    // as many responses fetched and not yet recorded, and robots.txt.
    assert.ok(stats.duplicateRequests <= kills * 5, `${stats.duplicateRequests} duplicate requests after ${kills} kills`);
  });

  it('with 8 connections, re-fetches only URLs in flight at a kill: at most two per connection (on the wire, fetched but not yet committed) and robots.txt', async () => {
    const CONNECTIONS = 8;
    await fetch(`${site.origin}/__stats/reset`, { method: 'POST' });
    const dir = path.join(work, 'killed-8');
    const args = ['--delay-ms', '0', '--connections', String(CONNECTIONS)];
    const perUrl = async () => ((await site.stats(true)) as { perUrl: Record<string, number> }).perUrl;
    const target = (url: string) => new URL(url).pathname + new URL(url).search;
    /** Requested URLs whose outcome was not committed when the run was killed. */
    const lost = new Set<string>();
    let before: Record<string, number> = {};
    let kills = 0;
    let code = await runAndKill(['crawl', `${site.origin}/`, '--out', dir, ...args], 300 + Math.random() * 700);
    while (code === null) {
      kills++;
      const counts = await perUrl();
      const queued = new Set([...listArchive(dir)].filter(([, e]) => (JSON.parse(e) as unknown[])[0] === 'queued').map(([url]) => target(url)));
      const inFlight = Object.keys(counts).filter((p) => counts[p]! > (before[p] ?? 0) && (queued.has(p) || p === '/robots.txt'));
      // robots.txt is committed once per site; if it is not in the catalogue yet, it was in flight.
      assert.ok(inFlight.length <= 2 * CONNECTIONS + 1, `${inFlight.length} URLs in flight at kill ${kills}: ${inFlight.join(' ')}`);
      for (const p of inFlight) lost.add(p);
      before = counts;
      code = await runAndKill(['resume', dir], kills < KILLS ? 300 + Math.random() * 700 : 600_000);
    }
    assert.equal(code, 0);
    assert.ok(kills >= 1, 'the crawl finished before it could be killed');
    const counts = await perUrl();
    const again = Object.keys(counts).filter((p) => counts[p]! > 1);
    for (const p of again) assert.ok(lost.has(p), `${p} was fetched ${counts[p]} times but was not in flight at a kill`);
  });
});
