import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { scanGzipMembers } from '../../electron/engine/warc/gzipMembers.js';
import { WarcWriter } from '../../electron/engine/warc/writer.js';
import { CLI } from '../helpers/benchSite.js';
import { waczPackage, writeZip, type ZipEntrySpec } from '../helpers/zipFiles.js';
import { exchange, tempDir, warcFiles } from '../unit/warc/fixtures.js';

function harvest(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('harvest verify: exit statuses, --json and --deep from the command line', () => {
  let dir: string;
  let warcName: string;
  let good: string;

  async function wacz(name: string, warcBytes: Buffer): Promise<string> {
    const resources: ZipEntrySpec[] = [{ name: `archive/${warcName}`, data: warcBytes }];
    const file = path.join(dir, name);
    await writeZip(file, [...resources, ...waczPackage(resources)]);
    return file;
  }

  before(async () => {
    dir = tempDir();
    const writer = await WarcWriter.open({ dir: path.join(dir, 'warc'), prefix: 'harvest', software: 'test' });
    await writer.writeExchange(exchange('http://lib.test/', { payload: Buffer.from('<p>Opening hours</p>') }));
    await writer.close();
    warcName = warcFiles(path.join(dir, 'warc'))[0]!;
    good = await wacz('good.wacz', readFileSync(path.join(dir, 'warc', warcName)));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 for a valid WACZ, with or without --deep', () => {
    assert.equal(harvest('verify', good).status, 0);
    const deep = harvest('verify', good, '--deep');
    assert.equal(deep.status, 0, deep.stdout + deep.stderr);
    assert.match(deep.stdout, /^valid WACZ: .*, 3 WARC records checked\)$/m);
  });

  it('exits 1, not 2, for a WACZ cut short, and says why', () => {
    const bytes = readFileSync(good);
    const cut = path.join(dir, 'cut.wacz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const r = harvest('verify', cut);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^INVALID WACZ: /);
    assert.match(r.stdout, /^invalid\tcut\.wacz\ta ZIP that cannot be read, probably cut short or damaged/m);
  });

  it('exits 1 for a bag that lost its bagit.txt but keeps its manifest', () => {
    const bag = path.join(dir, 'bag');
    mkdirSync(path.join(bag, 'data'), { recursive: true });
    writeFileSync(path.join(bag, 'data', 'a.txt'), 'payload');
    writeFileSync(path.join(bag, 'manifest-sha512.txt'), `${createHash('sha512').update('payload').digest('hex')}  data/a.txt\n`);
    const r = harvest('verify', bag);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^missing\tbagit\.txt\t/m);
  });

  it('exits 2 for what is no bag or WACZ at all and for bad arguments', () => {
    const junk = path.join(dir, 'junk.wacz');
    writeFileSync(junk, 'not a zip at all');
    const plainDir = path.join(dir, 'plain');
    mkdirSync(plainDir);
    assert.equal(harvest('verify', junk).status, 2);
    assert.equal(harvest('verify', plainDir).status, 2);
    assert.equal(harvest('verify', path.join(dir, 'absent.wacz')).status, 2);
    assert.equal(harvest('verify').status, 2);
    assert.equal(harvest('verify', good, '--no-such-option').status, 2);
  });

  it('answers in JSON with --json, errors included', () => {
    const junk = harvest('verify', path.join(dir, 'junk.wacz'), '--json');
    assert.equal(junk.status, 2);
    const err = JSON.parse(junk.stdout) as { ok: boolean; error: { kind: string; message: string }; exitCode: number };
    assert.deepEqual([err.ok, err.error.kind, err.exitCode], [false, 'input', 2]);
    assert.match(err.error.message, /junk\.wacz is neither a bag folder nor a WACZ/);
    assert.equal(junk.stderr, '');

    const usage = harvest('verify', '--json');
    assert.equal(usage.status, 2);
    assert.equal((JSON.parse(usage.stdout) as { error: { kind: string } }).error.kind, 'usage');
    const badOption = harvest('verify', good, '--json', '--bogus');
    assert.equal(badOption.status, 2);
    assert.match((JSON.parse(badOption.stdout) as { error: { message: string } }).error.message, /bogus/);

    const cut = harvest('verify', path.join(dir, 'cut.wacz'), '--json');
    assert.equal(cut.status, 1);
    const report = JSON.parse(cut.stdout) as { ok: boolean; problems: { kind: string }[] };
    assert.equal(report.ok, false);
    assert.deepEqual(report.problems.map((p) => p.kind), ['invalid']);
  });

  it('--deep finds an edited record that the package hashes were rewritten to hide', async () => {
    const members = await membersOf(path.join(dir, 'warc', warcName));
    const response = members.findIndex((m) => gunzipSync(m).includes('Opening hours'));
    members[response] = gzipSync(Buffer.from(gunzipSync(members[response]!).toString('latin1').replace('Opening hours', 'Closing hours'), 'latin1'));
    const edited = await wacz('edited.wacz', Buffer.concat(members));
    assert.equal(harvest('verify', edited).status, 0);
    const r = harvest('verify', edited, '--deep');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^altered\tarchive\/.*\.warc\.gz\trecord 2 \(response http:\/\/lib\.test\/.*WARC-Block-Digest/m);
  });
});

/** A .warc.gz split into its gzip members (one record each, as Harvest writes them). */
async function membersOf(file: string): Promise<Buffer[]> {
  const bytes = readFileSync(file);
  const out: Buffer[] = [];
  const fh = await open(file, 'r');
  try {
    await scanGzipMembers(fh, (m) => void out.push(bytes.subarray(m.offset, m.offset + m.length)));
  } finally {
    await fh.close();
  }
  return out;
}
