import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';

const CATALOGUE_MODULE = new URL('../../../electron/engine/store/catalogue.js', import.meta.url).href;

/** Opens and closes the catalogue `rounds` times, committing 200 transactions each time and checkpointing every 50. */
const WRITER = `import { Catalogue } from '${CATALOGUE_MODULE}';
  const [file, rounds] = process.argv.slice(1);
  let n = 0;
  for (let r = 0; r < Number(rounds); r++) {
    const c = Catalogue.open(file);
    for (let i = 0; i < 200; i++) {
      c.transaction(() => { for (let k = 0; k < 20; k++) c.setMeta('k' + k, String(n++)); });
      if (i % 50 === 49) c.checkpoint();
    }
    c.close();
  }`;

/** Opens the catalogue read-only and reads it, again and again, until told to stop on stdin; prints what it saw. */
const READER = `import { Catalogue } from '${CATALOGUE_MODULE}';
  const file = process.argv[1];
  let stop = false;
  process.stdin.on('data', () => { stop = true; }).resume();
  let reads = 0; const errors = [];
  const step = () => {
    for (let i = 0; i < 20 && !stop; i++) {
      try { const c = Catalogue.open(file, { readonly: true }); c.getMeta('k1'); c.countByState(); c.close(); reads++; }
      catch (e) { errors.push(e.name + ': ' + e.message); }
    }
    if (stop) { process.stdout.write(JSON.stringify({ reads, errors })); process.stdin.pause(); }
    else setImmediate(step);
  };
  step();`;

function node(script: string, args: string[]) {
  return spawn(process.execPath, ['--input-type=module', '-e', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
}

function finished(child: ReturnType<typeof node>): Promise<{ code: number | null; out: string }> {
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

describe('readers beside a writer in other processes', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harvest-readers-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('never see the catalogue busy while the writer commits, checkpoints, closes and reopens it', async () => {
    const file = path.join(dir, 'catalogue.sqlite');
    Catalogue.open(file).close();
    const readers = [node(READER, [file]), node(READER, [file])];
    const results = readers.map(finished);
    // Each close switches the file out of WAL and each open back into it: the moments a reader
    // would meet a lock without its busy timeout (30 rounds met it 4 times without one).
    const writer = await finished(node(WRITER, [file, '30']));
    for (const r of readers) r.stdin.end('stop');
    assert.equal(writer.code, 0, 'the writer ran every round');
    for (const r of await Promise.all(results)) {
      assert.equal(r.code, 0);
      const seen = JSON.parse(r.out) as { reads: number; errors: string[] };
      assert.deepEqual(seen.errors, [], `${seen.errors.length} failed reads of ${seen.reads + seen.errors.length}`);
      assert.ok(seen.reads > 0, 'the reader read');
    }
  });
});
