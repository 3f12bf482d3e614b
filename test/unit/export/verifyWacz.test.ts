import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { verify, VerifyInputError } from '../../../electron/engine/export/verify.js';
import { waczPackage, writeZip, type ZipEntrySpec } from '../../helpers/zipFiles.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-verify-wacz-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const resources: ZipEntrySpec[] = [
  { name: 'archive/data.warc.gz', data: Buffer.from('WARC/1.1 MARKER-ONE '.repeat(50)) },
  { name: 'indexes/index.cdx', data: Buffer.from('org,example)/ 20261123000000 {"url":"http://example.org/","filename":"data.warc.gz","offset":"0","length":"20"}\n') },
  { name: 'pages/pages.jsonl', data: Buffer.from('{"format":"json-pages-1.0"}\n{"url":"http://example.org/","ts":"2026-11-23T00:00:00Z"}\n') },
];
let n = 0;
async function wacz(entries: ZipEntrySpec[]): Promise<string> {
  const file = path.join(dir, `t${n++}.wacz`);
  await writeZip(file, entries);
  return file;
}

test('a WACZ whose files match datapackage.json verifies', async () => {
  const r = await verify(await wacz([...resources, ...waczPackage(resources)]));
  assert.equal(r.format, 'wacz');
  assert.deepEqual(r.problems, []);
  assert.equal(r.ok, true);
  assert.equal(r.files, 3);
  // Counted with no progress listener too.
  assert.equal(r.bytes, resources.reduce((n, e) => n + e.data.length, 0));
});

test('one flipped byte in a resource is reported as altered, naming it', async () => {
  const file = await wacz([...resources, ...waczPackage(resources)]);
  const bytes = readFileSync(file);
  const at = bytes.indexOf('MARKER-ONE');
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
  const r = await verify(file);
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.problems.map((p) => [p.kind, p.path]),
    [['altered', 'archive/data.warc.gz']],
  );
});

test('a resource missing from the ZIP and a file datapackage.json does not list are both reported', async () => {
  const extra = { name: 'archive/extra.warc.gz', data: Buffer.from('not listed') };
  const r = await verify(await wacz([resources[0]!, resources[2]!, extra, ...waczPackage(resources)]));
  assert.deepEqual(
    r.problems.map((p) => [p.kind, p.path]).sort(),
    [
      ['missing', 'indexes/index.cdx'],
      ['unlisted', 'archive/extra.warc.gz'],
    ],
  );
});

test('an edited datapackage.json no longer matches datapackage-digest.json', async () => {
  const [pkg, digest] = waczPackage(resources);
  const edited = { name: pkg!.name, data: Buffer.from(pkg!.data.toString().replace('1.1.1', '1.1.2')) };
  const r = await verify(await wacz([...resources, edited, digest!]));
  assert.deepEqual(
    r.problems.map((p) => [p.kind, p.path]),
    [['altered', 'datapackage.json']],
  );
});

test('a ZIP without datapackage.json is invalid; a file that is no ZIP is bad input', async () => {
  const r = await verify(await wacz(resources));
  assert.deepEqual(
    r.problems.map((p) => [p.kind, p.path]),
    [['missing', 'datapackage.json']],
  );
  const junk = path.join(dir, 'junk.wacz');
  writeFileSync(junk, 'not a zip at all');
  await assert.rejects(verify(junk), VerifyInputError);
  await assert.rejects(verify(path.join(dir, 'absent.wacz')), VerifyInputError);
});

test('datapackage-digest.json is optional, but checked when present', async () => {
  const [pkg] = waczPackage(resources);
  assert.deepEqual((await verify(await wacz([...resources, pkg!]))).problems, []);
});

test('a resource whose size in datapackage.json disagrees is altered, even when its hash matches', async () => {
  const [pkg] = waczPackage(resources);
  const json = JSON.parse(pkg!.data.toString()) as { resources: { path: string; bytes: number }[] };
  json.resources.find((r) => r.path === 'indexes/index.cdx')!.bytes += 1;
  const edited = Buffer.from(JSON.stringify(json));
  const r = await verify(await wacz([...resources, { name: pkg!.name, data: edited }]));
  assert.deepEqual(
    r.problems.map((p) => [p.kind, p.path]),
    [['altered', 'indexes/index.cdx']],
  );
  assert.match(r.problems[0]!.detail, /bytes, datapackage\.json says \d+/);
});
