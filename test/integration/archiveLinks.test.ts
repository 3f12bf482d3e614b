import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveFileWithin } from '../../electron/host/httpGuards.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';

/** A symbolic link where an archive keeps its own entries must never lead out of it. */
describe('symbolic links in an archive folder', { timeout: 300_000 }, () => {
  let work: string;
  let site: BenchSite;
  let archive: string;
  /** Files outside every archive that a crafted folder points at. */
  let outside: string;

  /** A copy of the crawled archive to craft. */
  const copy = (name: string): string => {
    const dir = path.join(work, name);
    cpSync(archive, dir, { recursive: true });
    return dir;
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-links-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    archive = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--max-pages', '5', '--delay-ms', '0', '--quiet']);
    assert.equal(crawl.status, 0, crawl.stderr);
    outside = path.join(work, 'private');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'index.html'), '<p>SECRET-OUTSIDE</p>');
    writeFileSync(path.join(outside, 'secret.warc.gz'), 'SECRET-OUTSIDE');
  });

  after(async () => {
    await site?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('refuses an archive whose mirror/ is a link, naming it, for every command that opens it', async () => {
    const dir = copy('linked-mirror');
    rmSync(path.join(dir, 'mirror'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'mirror'));
    for (const args of [['stats', dir], ['export', dir, '--format', 'zip', '--out', path.join(work, 'm.zip')], ['reindex', dir, '--quiet'], ['resume', dir, '--quiet']]) {
      const r = await runHarvest(args);
      assert.equal(r.status, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, new RegExp(`mirror -> ${outside.replace(/[/.]/g, '\\$&')} is a symbolic link`), args[0]);
    }
    assert.equal(existsSync(path.join(work, 'm.zip')), false);
  });

  it('refuses an archive with a WARC file that is a link, so no export carries the file it points at', async () => {
    const dir = copy('linked-warc');
    const warcDir = path.join(dir, 'warc');
    const name = readdirSync(warcDir).find((n) => n.endsWith('.warc.gz'))!;
    renameSync(path.join(warcDir, name), path.join(work, 'moved.warc.gz'));
    symlinkSync(path.join(outside, 'secret.warc.gz'), path.join(warcDir, name));
    for (const format of ['warc', 'wacz', 'bagit']) {
      const out = path.join(work, `w.${format}`);
      const r = await runHarvest(['export', dir, '--format', format, '--out', out]);
      assert.equal(r.status, 2, `${format}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`warc/${name.replace(/\./g, '\\.')} -> .* is a symbolic link`));
      assert.equal(existsSync(out), false, format);
    }
  });

  it('never serves a file through a mirror root that is a link', () => {
    const root = path.join(work, 'linked-root');
    symlinkSync(outside, root);
    assert.equal(resolveFileWithin(root, ['index.html']), null);
    // A real folder still serves its own files, and nothing a link inside it points out to.
    const real = path.join(work, 'real-root');
    mkdirSync(real);
    writeFileSync(path.join(real, 'page.html'), 'ok');
    symlinkSync(path.join(outside, 'index.html'), path.join(real, 'escape.html'));
    assert.equal(resolveFileWithin(real, ['page.html']), path.join(real, 'page.html'));
    assert.equal(resolveFileWithin(real, ['escape.html']), null);
  });

  it('verify names a bag payload file that is a link and does not read it', async () => {
    const bag = path.join(work, 'bag');
    const made = await runHarvest(['export', archive, '--format', 'bagit', '--out', bag]);
    assert.equal(made.status, 0, made.stderr);
    const data = path.join(bag, 'data');
    const name = readdirSync(data).find((n) => n.endsWith('.wacz'))!;
    rmSync(path.join(data, name));
    symlinkSync(path.join(outside, 'secret.warc.gz'), path.join(data, name));
    const r = await runHarvest(['verify', bag, '--json']);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /a symbolic link \(not followed\)/);
  });
});
