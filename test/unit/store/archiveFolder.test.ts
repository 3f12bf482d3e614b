import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { newArchiveFolderProblem, protectedFolderReason, removeArchiveContents } from '../../../electron/engine/store/archiveFolder.js';

const linux = { home: '/home/ann', platform: 'linux' as const };
const mac = { home: '/Users/ann', platform: 'darwin' as const };
const win = { home: 'C:\\Users\\ann', platform: 'win32' as const };

describe('archive folders', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-folder-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('protects disk roots, the home folder and what holds it, and system folders', () => {
    for (const dir of ['/', '/etc', '/usr/lib/x', '/home', '/home/ann', '/home/ann/', '/var', '/tmp', '/proc/1']) assert.ok(protectedFolderReason(dir, linux), dir);
    for (const dir of ['/home/ann/Archives', '/home/bob/site', '/srv/archives/a', '/tmp/a', '/var/lib/harvest/a']) assert.equal(protectedFolderReason(dir, linux), null, dir);
    for (const dir of ['/', '/Users', '/users/ANN', '/System/Library', '/Applications/Harvest.app', '/private/etc']) assert.ok(protectedFolderReason(dir, mac), dir);
    assert.equal(protectedFolderReason('/Users/ann/Documents/site', mac), null);
    for (const dir of ['C:\\', 'D:\\', 'C:\\Users', 'c:\\users\\ann', 'C:\\Windows\\System32', 'C:\\Program Files\\x', 'C:\\ProgramData']) assert.ok(protectedFolderReason(dir, win), dir);
    for (const dir of ['C:\\Users\\ann\\Archives', 'D:\\archives\\site']) assert.equal(protectedFolderReason(dir, win), null, dir);
    assert.match(protectedFolderReason('/home/ann', linux)!, /home folder/);
    assert.match(protectedFolderReason('/etc', linux)!, /system folder/);
  });

  it("takes a new or empty folder or an interrupted archive, never a folder of someone's files", () => {
    const ctx = { home: path.join(work, 'home'), platform: process.platform };
    assert.equal(newArchiveFolderProblem(path.join(work, 'new'), ctx), null);
    mkdirSync(path.join(work, 'empty'));
    assert.equal(newArchiveFolderProblem(path.join(work, 'empty'), ctx), null);
    mkdirSync(path.join(work, 'interrupted', 'mirror'), { recursive: true });
    writeFileSync(path.join(work, 'interrupted', 'catalogue.sqlite'), '');
    writeFileSync(path.join(work, 'interrupted', 'text.sqlite'), '');
    assert.equal(newArchiveFolderProblem(path.join(work, 'interrupted'), ctx), null);
    mkdirSync(path.join(work, 'thesis'));
    for (const n of ['a.docx', 'b.docx', 'c.docx', 'd.docx']) writeFileSync(path.join(work, 'thesis', n), '');
    assert.match(newArchiveFolderProblem(path.join(work, 'thesis'), ctx)!, /not empty and is not a Harvest archive \(it holds 'a\.docx', 'b\.docx', 'c\.docx' and 1 more\)/);
  });

  it("never takes a folder of someone's files that merely carry Harvest's names, nor deletes them", () => {
    const ctx = { home: path.join(work, 'home'), platform: process.platform };
    const site = path.join(work, 'own-site');
    mkdirSync(path.join(site, 'mirror'), { recursive: true });
    mkdirSync(path.join(site, 'warc'));
    writeFileSync(path.join(site, 'mirror', 'index.html'), 'mine');
    writeFileSync(path.join(site, 'control.json'), '{}');
    assert.match(newArchiveFolderProblem(site, ctx)!, /not empty and is not a Harvest archive \(it holds 'control\.json', 'mirror', 'warc'\)/);
    const r = removeArchiveContents(site, ctx);
    assert.deepEqual(r.removed, []);
    assert.match(r.refused!, /not made by Harvest/);
    assert.equal(readFileSync(path.join(site, 'mirror', 'index.html'), 'utf8'), 'mine');
    // Someone's own SQLite file named like the catalogue does not make the folder Harvest's.
    const db = new Database(path.join(site, 'catalogue.sqlite'));
    db.exec('CREATE TABLE books (title TEXT)');
    db.close();
    assert.ok(newArchiveFolderProblem(site, ctx));
    assert.deepEqual(removeArchiveContents(site, ctx).removed, []);
    // With the marker Harvest writes first, it is an archive folder (an interrupted creation).
    const made = path.join(work, 'made');
    mkdirSync(path.join(made, 'mirror'), { recursive: true });
    writeFileSync(path.join(made, '.harvest-archive'), '');
    assert.equal(newArchiveFolderProblem(made, ctx), null);
    assert.deepEqual(removeArchiveContents(made, ctx), { removed: ['.harvest-archive', 'mirror'], leftBehind: [], folderRemoved: true, refused: null });
  });

  it('removes only what Harvest made, never follows a link out of the folder, and refuses protected folders', () => {
    const dir = path.join(work, 'archive');
    const elsewhere = path.join(work, 'elsewhere');
    mkdirSync(path.join(dir, 'warc'), { recursive: true });
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'precious.txt'), 'p');
    writeFileSync(path.join(dir, 'catalogue.sqlite'), '');
    writeFileSync(path.join(dir, 'catalogue.sqlite-wal'), '');
    writeFileSync(path.join(dir, 'text.sqlite'), '');
    writeFileSync(path.join(dir, 'text.sqlite.building'), '');
    writeFileSync(path.join(dir, 'warc', 'a.warc.gz'), '');
    symlinkSync(elsewhere, path.join(dir, 'mirror'));
    writeFileSync(path.join(dir, 'notes.txt'), 'n');
    const r = removeArchiveContents(dir, { home: path.join(work, 'home'), platform: process.platform });
    assert.deepEqual(r, { removed: ['catalogue.sqlite', 'catalogue.sqlite-wal', 'mirror', 'text.sqlite', 'text.sqlite.building', 'warc'], leftBehind: ['notes.txt'], folderRemoved: false, refused: null });
    assert.equal(readFileSync(path.join(elsewhere, 'precious.txt'), 'utf8'), 'p');
    assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'n');

    const home = path.join(work, 'home');
    mkdirSync(path.join(home, 'mirror'), { recursive: true });
    const refused = removeArchiveContents(home, { home, platform: process.platform });
    assert.match(refused.refused!, /home folder/);
    assert.deepEqual(refused.removed, []);
    assert.ok(existsSync(path.join(home, 'mirror')));
  });
});
