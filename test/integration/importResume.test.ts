/**
 * A `harvest import` killed (SIGKILL) at several points, each time run again with the same command,
 * and one paused with Ctrl-C (SIGINT) and continued by `harvest resume`, end as an uninterrupted
 * import of the same files: the same catalogue rows, search index and WARC bytes, and
 * a WACZ export of it passes `verify --deep`. The files mix a gzip member per record, a plain WARC with revisits and a
 * damaged record, and several records to a member (a kill between two records of one member).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { archiveContents, committedIn, writeImportInputs } from '../helpers/importResumeFixture.js';

const WAIT_MS = 300_000;

/**
 * Runs `harvest <args>` and sends `signal` once `ready()` holds (polled while it runs); fails naming
 * `what` if the process ends first. Resolves with its exit code and stderr.
 */
function interruptWhen(args: string[], ready: () => boolean, what: string, signal: NodeJS.Signals): Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let sent = false;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const started = Date.now();
    const poll = setInterval(() => {
      if (sent) return;
      if (ready()) {
        sent = true;
        child.kill(signal);
      } else if (Date.now() - started > WAIT_MS) {
        sent = true;
        child.kill('SIGKILL');
        reject(new Error(`never happened within ${WAIT_MS / 1000} s: ${what}`));
      }
    }, 20);
    child.once('close', (status, sig) => {
      clearInterval(poll);
      if (!sent) reject(new Error(`the import ended (${status ?? sig}) before ${what}:\n${stderr}`));
      else resolve({ status, signal: sig, stderr });
    });
  });
}

describe('harvest import: killed, paused and resumed', { timeout: 900_000 }, () => {
  let work: string;
  let inputs: string[];
  let reference: Record<string, unknown>;
  let total: number;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-resume-'));
    const inDir = path.join(work, 'in');
    mkdirSync(inDir);
    inputs = writeImportInputs(inDir, { first: 1200, second: 900, third: 1500 });
    const ref = path.join(work, 'reference');
    const events = path.join(work, 'reference.jsonl');
    const r = await runHarvest(['import', ...inputs, '--out', ref, '--quiet', '--events-jsonl', events], { timeoutMs: WAIT_MS });
    assert.equal(r.status, 0, r.stderr);
    reference = archiveContents(ref);
    total = committedIn(events).records;
    assert.ok(total > 3500, `the reference import took ${total} records`);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('goes on after each kill and ends as an uninterrupted import', async () => {
    const out = path.join(work, 'killed');
    const args = (run: number) => ['import', ...inputs, '--out', out, '--quiet', '--events-jsonl', path.join(work, `killed-${run}.jsonl`)];
    // In the first file; in the second (revisits, the damaged record); in the third (records that
    // share a gzip member); in the finishing pass.
    const stops: { what: string; reading: boolean; ready: (c: { records: number; rewriting: boolean }) => boolean }[] = [
      { what: '400 records committed', reading: true, ready: (c) => c.records >= 400 },
      { what: '1,500 records committed', reading: true, ready: (c) => c.records >= 1500 },
      { what: '2,400 records committed', reading: true, ready: (c) => c.records >= 2400 },
      { what: 'the offline copy being written', reading: false, ready: (c) => c.rewriting },
    ];
    let before = 0;
    for (const [run, stop] of stops.entries()) {
      const events = path.join(work, `killed-${run}.jsonl`);
      const r = await interruptWhen(args(run), () => stop.ready(committedIn(events)), stop.what, 'SIGKILL');
      assert.equal(r.signal, 'SIGKILL', `killed once ${stop.what}: ${r.stderr}`);
      const now = committedIn(events).records;
      assert.ok(now >= before, `records committed went back from ${before} to ${now}`);
      if (stop.reading) assert.ok(now < total, `killed once ${stop.what}, but all ${total} records were committed by then`);
      before = now;
    }
    const last = await runHarvest(args(stops.length), { timeoutMs: WAIT_MS });
    assert.equal(last.status, 0, last.stderr);
    assert.deepEqual(archiveContents(out), reference);
    const again = await runHarvest(args(stops.length + 1), { timeoutMs: WAIT_MS });
    assert.equal(again.status, 2, again.stderr);
    assert.match(again.stderr, /already holds a finished import; choose a new folder/);
    const wacz = path.join(work, 'killed.wacz');
    const e = await runHarvest(['export', out, '--format', 'wacz', '--out', wacz, '--quiet'], { timeoutMs: WAIT_MS });
    assert.equal(e.status, 0, e.stderr);
    const verify = await runHarvest(['verify', wacz, '--deep', '--json'], { timeoutMs: WAIT_MS });
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  });

  it('pauses at a record on Ctrl-C, says how to go on, and harvest resume ends it as an uninterrupted import', async () => {
    const out = path.join(work, 'paused');
    const events = path.join(work, 'paused.jsonl');
    const r = await interruptWhen(['import', ...inputs, '--out', out, '--events-jsonl', events], () => committedIn(events).records >= 400, '400 records committed', 'SIGINT');
    assert.equal(r.status, 130, r.stderr);
    assert.match(r.stderr, /pausing at the next record/);
    assert.match(r.stderr, new RegExp(`paused: \\d+ records imported so far.*\\nresume with: harvest resume ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
    const paused = committedIn(events).records;
    assert.ok(paused >= 400 && paused < total, `paused with ${paused} of ${total} records committed`);
    const resumed = await runHarvest(['resume', out], { timeoutMs: WAIT_MS });
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /going on with the unfinished import/);
    assert.deepEqual(archiveContents(out), reference);
  });

  it('refuses other files into a folder an unfinished import holds, naming its files', async () => {
    const out = path.join(work, 'other');
    const events = path.join(work, 'other.jsonl');
    const r = await interruptWhen(['import', ...inputs, '--out', out, '--quiet', '--events-jsonl', events], () => committedIn(events).records >= 400, '400 records committed', 'SIGKILL');
    assert.equal(r.signal, 'SIGKILL');
    const other = await runHarvest(['import', inputs[0]!, '--out', out, '--quiet'], { timeoutMs: WAIT_MS });
    assert.notEqual(other.status, 0);
    assert.match(other.stderr, /holds an unfinished import of .*first\.warc\.gz.*second\.warc/);
  });
});
