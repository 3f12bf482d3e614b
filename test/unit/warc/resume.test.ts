import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OPEN_SUFFIX } from '../../../electron/engine/warc/fileNames.js';
import type { OriginalCapture, WarcCheckpoints, WarcWriterOptions } from '../../../electron/engine/warc/types.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { exchange, noise, tempDir, warcFiles } from './fixtures.js';
import { assertTilesFile, payloadOf, readRaw, type RawRecord } from '../../helpers/warcReadBack.js';

/** What a crawl's catalogue keeps for the writer: payload captures and checkpoints. */
function catalogue(): Pick<WarcWriterOptions, 'seenDigest' | 'onOriginal'> & { checkpoints: WarcCheckpoints; saved: Map<string, number> } {
  const captures = new Map<string, OriginalCapture>();
  const saved = new Map<string, number>();
  return {
    seenDigest: (digest) => captures.get(digest) ?? null,
    onOriginal: (digest, capture) => captures.set(digest, capture),
    checkpoints: { get: (file) => saved.get(file) ?? null, set: (file, end) => saved.set(file, end) },
    saved,
  };
}

/**
 * A writer's unfinished file as a killed process leaves it: copied while the writer still has it
 * open (everything written so far is in it), before the writer finishes and renames its own copy.
 */
async function unfinishedFile(
  into: string,
  urls: readonly string[],
  opts: Partial<WarcWriterOptions> = {},
  payloadBytes = 700,
): Promise<string> {
  const scratch = path.join(into, 'scratch');
  const w = await WarcWriter.open({ dir: scratch, prefix: 'crawl', software: 'Harvest', ...opts });
  for (const url of urls) await w.writeExchange(exchange(url, { payload: noise(url, payloadBytes) }));
  const name = warcFiles(scratch)[0]!;
  assert.ok(name.endsWith(OPEN_SUFFIX));
  const dir = path.join(into, 'archive');
  mkdirSync(dir);
  copyFileSync(path.join(scratch, name), path.join(dir, name));
  await w.close();
  return path.join(dir, name);
}

async function readAll(dir: string): Promise<{ file: string; raw: RawRecord[] }[]> {
  const out = [];
  for (const name of warcFiles(dir)) {
    const file = path.join(dir, name);
    const raw = await readRaw(file);
    assertTilesFile(raw, file);
    out.push({ file, raw });
  }
  return out;
}

const targets = (raw: readonly RawRecord[]): string[] => raw.slice(1).map((r) => `${r.type} ${r.header('WARC-Target-URI')}`);

describe('WarcWriter resume', () => {
  let root: string;
  let n = 0;
  const caseDir = (): string => {
    const dir = path.join(root, `case-${n++}`);
    mkdirSync(dir);
    return dir;
  };
  before(() => {
    root = tempDir();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('appends to an intact unfinished file under its warcinfo record; its payloads become revisits through seenDigest', async () => {
    const c = catalogue();
    const openPath = await unfinishedFile(caseDir(), ['http://lib.test/a', 'http://lib.test/b'], c);
    const dir = path.dirname(openPath);
    const w = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest', ...c });
    assert.deepEqual(w.repairs, []);
    const dup = await w.writeExchange(exchange('http://lib.test/a-again', { payload: noise('http://lib.test/a', 700) }));
    await w.writeExchange(exchange('http://lib.test/c'));
    await w.close();
    assert.equal(dup.revisitOf?.url, 'http://lib.test/a', 'a payload written before the restart');
    const [only, ...rest] = await readAll(dir);
    assert.equal(rest.length, 0);
    assert.equal(only!.file, openPath.slice(0, -OPEN_SUFFIX.length));
    const raw = only!.raw;
    assert.deepEqual(targets(raw), [
      'response http://lib.test/a',
      'request http://lib.test/a',
      'response http://lib.test/b',
      'request http://lib.test/b',
      'revisit http://lib.test/a-again',
      'request http://lib.test/a-again',
      'response http://lib.test/c',
      'request http://lib.test/c',
    ]);
    assert.equal(raw.filter((r) => r.type === 'warcinfo').length, 1);
    for (const r of raw.slice(1)) assert.equal(r.header('WARC-Warcinfo-ID'), raw[0]!.header('WARC-Record-ID'));
  });

  it('cuts a record torn mid-write, keeps the cut bytes aside, and continues with a valid file', async () => {
    const openPath = await unfinishedFile(caseDir(), ['http://lib.test/a', 'http://lib.test/b']);
    const dir = path.dirname(openPath);
    const before = await readRaw(openPath);
    const lastRequest = before.at(-1)!;
    const whole = readFileSync(openPath);
    const tornAt = lastRequest.offset + Math.floor(lastRequest.length / 2);
    truncateSync(openPath, tornAt);

    const w = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest' });
    const name = path.basename(openPath, OPEN_SUFFIX);
    assert.deepEqual(w.repairs, [
      { file: name, cutAt: lastRequest.offset, bytesCut: tornAt - lastRequest.offset, savedAs: `${name}.cut-${lastRequest.offset}` },
    ]);
    assert.deepEqual(readFileSync(path.join(dir, w.repairs[0]!.savedAs)), whole.subarray(lastRequest.offset, tornAt));
    await w.writeExchange(exchange('http://lib.test/c'));
    await w.close();

    const [only] = await readAll(dir);
    assert.deepEqual(targets(only!.raw), [
      'response http://lib.test/a',
      'request http://lib.test/a',
      'response http://lib.test/b',
      'response http://lib.test/c',
      'request http://lib.test/c',
    ]);
    assert.deepEqual(payloadOf(only!.raw[3]!.block), noise('http://lib.test/b', 700));
  });

  it('checks only what follows the checkpoint, and saves a new one once the file is checked', async () => {
    const c = catalogue();
    const urls = ['a', 'b', 'c', 'd'].map((p) => `http://lib.test/${p}`);
    const openPath = await unfinishedFile(caseDir(), urls, c, 400 * 1024);
    const dir = path.dirname(openPath);
    const name = path.basename(openPath, OPEN_SUFFIX);
    const checkpoint = c.saved.get(name);
    assert.ok(checkpoint !== undefined && checkpoint > 0, 'a checkpoint was saved after each MiB');
    const size = statSync(openPath).size;
    assert.ok(checkpoint < size);
    // A byte flipped before the checkpoint goes unseen (it is not read); garbage after the tail is cut.
    const bytes = readFileSync(openPath);
    const flipAt = Math.floor(checkpoint / 2);
    bytes.writeUInt8(bytes.readUInt8(flipAt) ^ 0xff, flipAt);
    writeFileSync(openPath, Buffer.concat([bytes, noise('garbage', 100)]));

    const w = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest', ...c });
    assert.deepEqual(w.repairs.map((r) => [r.cutAt, r.bytesCut]), [[size, 100]]);
    assert.equal(c.saved.get(name), size);
    await w.close();
  });

  it('checks the whole file when the checkpoint lies past its end', async () => {
    const c = catalogue();
    const openPath = await unfinishedFile(caseDir(), ['http://lib.test/a', 'http://lib.test/b'], c);
    const dir = path.dirname(openPath);
    const name = path.basename(openPath, OPEN_SUFFIX);
    const before = await readRaw(openPath);
    truncateSync(openPath, before.at(-1)!.offset + 10);
    c.checkpoints.set(name, before.at(-1)!.offset + 1000);
    const w = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest', ...c });
    assert.equal(w.repairs[0]?.cutAt, before.at(-1)!.offset);
    await w.close();
  });

  it('cuts garbage appended after the last complete record', async () => {
    const openPath = await unfinishedFile(caseDir(), ['http://lib.test/a']);
    const dir = path.dirname(openPath);
    const size = statSync(openPath).size;
    appendFileSync(openPath, Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0]), noise('garbage', 3000)]));

    const w = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest' });
    assert.equal(w.repairs[0]?.cutAt, size);
    assert.equal(w.repairs[0]?.bytesCut, 3004);
    await w.writeExchange(exchange('http://lib.test/b'));
    await w.close();
    const [only] = await readAll(dir);
    assert.deepEqual(targets(only!.raw), [
      'response http://lib.test/a',
      'request http://lib.test/a',
      'response http://lib.test/b',
      'request http://lib.test/b',
    ]);
  });

  it('starts the file afresh with a new warcinfo record when even that one was torn', async () => {
    const openPath = await unfinishedFile(caseDir(), ['http://lib.test/a']);
    const dir = path.dirname(openPath);
    truncateSync(openPath, 40);
    const w = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest' });
    assert.equal(w.repairs[0]?.cutAt, 0);
    await w.writeExchange(exchange('http://lib.test/b'));
    await w.close();
    const [only] = await readAll(dir);
    assert.equal(only!.raw[0]!.type, 'warcinfo');
    assert.equal(only!.raw[0]!.header('WARC-Filename'), path.basename(only!.file));
    assert.deepEqual(targets(only!.raw), ['response http://lib.test/b', 'request http://lib.test/b']);
  });

  it('finishes older unfinished files as they are and resumes only the newest', async () => {
    const dir = caseDir();
    const older = await unfinishedFile(path.join(dir, 'one'), ['http://lib.test/a']);
    const newer = await unfinishedFile(path.join(dir, 'two'), ['http://lib.test/b']);
    const archive = path.join(dir, 'archive');
    mkdirSync(archive);
    // Same serial from two scratch writers: give the newer one the next serial.
    const olderName = path.basename(older);
    const newerName = path.basename(newer).replace('-00000.warc.gz', '-00001.warc.gz');
    copyFileSync(older, path.join(archive, olderName));
    copyFileSync(newer, path.join(archive, newerName));

    const w = await WarcWriter.open({ dir: archive, prefix: 'crawl', software: 'Harvest' });
    assert.deepEqual(warcFiles(archive), [olderName.slice(0, -OPEN_SUFFIX.length), newerName].sort());
    const loc = await w.writeExchange(exchange('http://lib.test/c'));
    assert.equal(loc.file, newerName.slice(0, -OPEN_SUFFIX.length));
    await w.close();
    const all = await readAll(archive);
    assert.deepEqual(
      all.map(({ raw }) => targets(raw)),
      [
        ['response http://lib.test/a', 'request http://lib.test/a'],
        ['response http://lib.test/b', 'request http://lib.test/b', 'response http://lib.test/c', 'request http://lib.test/c'],
      ],
    );
  });

  it('continues the serials after the files already there', async () => {
    const openPath = await unfinishedFile(caseDir(), ['http://lib.test/a']);
    const dir = path.dirname(openPath);
    const first = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest' });
    await first.close();
    const second = await WarcWriter.open({ dir, prefix: 'crawl', software: 'Harvest' });
    const loc = await second.writeExchange(exchange('http://lib.test/b'));
    await second.close();
    assert.match(loc.file, /-00001\.warc\.gz$/);
    assert.equal(warcFiles(dir).length, 2);
  });
});
