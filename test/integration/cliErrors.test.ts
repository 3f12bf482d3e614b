import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, startBenchSite, stopChild, type BenchSite } from '../helpers/benchSite.js';

function harvest(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
}

function assertOneLineError(r: ReturnType<typeof harvest>, pattern: RegExp): void {
  assert.notEqual(r.status, 0);
  const first = r.stderr.split('\n')[0] ?? '';
  assert.match(first, /^harvest: /);
  assert.match(first, pattern);
  assert.ok(!r.stderr.includes('    at '), `stack trace printed:\n${r.stderr}`);
}

describe('harvest command line: bad input', () => {
  let work: string;
  let site: BenchSite;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cli-'));
    site = await startBenchSite({ pages: 150, workDir: work, latencyMs: 40 });
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('rejects an invalid URL', () => {
    assertOneLineError(harvest('crawl', 'not a url', '--out', path.join(work, 'a')), /invalid URL 'not a url'/);
    assertOneLineError(harvest('crawl', 'ftp://example.org/', '--out', path.join(work, 'a')), /invalid URL/);
    assertOneLineError(harvest('crawl', 'htp://example.org/', '--out', path.join(work, 'a')), /invalid URL 'htp:\/\/example\.org\/': .*did you mean http:\/\/example\.org\/\?/);
    assertOneLineError(harvest('crawl', 'www.example.org', '--out', path.join(work, 'a')), /did you mean https:\/\/www\.example\.org\?/);
  });

  it('rejects a folder it cannot write', () => {
    const file = path.join(work, 'plain-file');
    writeFileSync(file, 'x');
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', path.join(file, 'archive')), /cannot create folder|not writable/);
  });

  it('rejects a missing --out, unknown options and bad numbers', () => {
    assertOneLineError(harvest('crawl', `${site.origin}/`), /--out/);
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', path.join(work, 'b'), '--bogus'), /bogus/);
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', path.join(work, 'b'), '--max-pages', 'ten'), /whole number/);
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', path.join(work, 'b'), '--scope', 'planet'), /--scope/);
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', path.join(work, 'b'), '--max-pages', '0'), /--max-pages/);
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', path.join(work, 'b'), '--include', '(['), /--include/);
  });

  it('refuses to resume or read something that is not an archive', () => {
    assertOneLineError(harvest('resume', work), /not a Harvest archive/);
    assertOneLineError(harvest('stats', path.join(work, 'nowhere'), '--json'), /not a Harvest archive/);
  });

  it('refuses to start a new crawl over an existing archive', async () => {
    const dir = path.join(work, 'twice');
    const first = harvest('crawl', `${site.origin}/`, '--out', dir, '--quiet', '--max-pages', '3', '--delay-ms', '0');
    assert.equal(first.status, 0, first.stderr);
    assertOneLineError(harvest('crawl', `${site.origin}/`, '--out', dir), /already holds an archive/);
  });

  it("refuses a folder of the user's own files as --out, and leaves it as it was", () => {
    const dir = path.join(work, 'thesis');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'chapter1.docx'), 'draft');
    const r = harvest('crawl', `${site.origin}/`, '--out', dir, '--max-pages', '1');
    assertOneLineError(r, /is not empty and is not a Harvest archive \(it holds 'chapter1\.docx'\)/);
    assert.equal(r.status, 2);
    assert.deepEqual(readdirSync(dir), ['chapter1.docx']);
  });

  it('refuses a second writer of an archive a crawl holds, and reads it meanwhile', async () => {
    const dir = path.join(work, 'busy');
    const child = spawn(process.execPath, [CLI, 'crawl', `${site.origin}/`, '--out', dir, '--quiet', '--delay-ms', '0'], { stdio: 'ignore' });
    try {
      const deadline = Date.now() + 20_000;
      while (!existsSync(path.join(dir, 'catalogue.sqlite')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300));
      assertOneLineError(harvest('resume', dir), /already being written by another process \(a crawl/);
      // Reading needs no lock (readWhileCrawling.test.ts reads a crawl that is sure to still run).
      const live = harvest('stats', dir, '--json');
      assert.equal(live.status, 0, live.stderr);
    } finally {
      await stopChild(child);
    }
    // SIGTERM pauses with a checkpoint, after which the archive opens again.
    const stats = harvest('stats', dir, '--json');
    assert.equal(stats.status, 0, stats.stderr);
    assert.equal((JSON.parse(stats.stdout) as { state: string }).state, 'paused');
  });
});
