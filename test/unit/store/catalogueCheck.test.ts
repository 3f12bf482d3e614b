import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Catalogue } from '../../../electron/engine/store/catalogue.js';
import { CatalogueDamagedError } from '../../../electron/engine/store/catalogueTypes.js';
import { closeDatabase, openDatabase } from '../../../electron/engine/store/sqlite/database.js';

const PAGE_SIZE = 4096;

describe("the catalogue's page check (quick_check)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'harvest-catalogue-check-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A catalogue of some 60 pages, its time set to a whole second so that it can be put back exactly. */
  function makeCatalogue(name: string): { file: string; time: Date } {
    const file = path.join(dir, name);
    const db = openDatabase(file);
    db.exec('CREATE TABLE filler (x BLOB)');
    const put = db.prepare('INSERT INTO filler (x) VALUES (?)');
    for (let i = 0; i < 60; i++) put.run(Buffer.alloc(3000, i));
    closeDatabase(db);
    const time = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(file, time, time);
    return { file, time };
  }

  function damage(file: string): void {
    const pages = Math.floor(statSync(file).size / PAGE_SIZE);
    const fd = openSync(file, 'r+');
    try {
      writeSync(fd, Buffer.alloc(PAGE_SIZE, 0xa5), 0, PAGE_SIZE, Math.floor(pages / 2) * PAGE_SIZE);
    } finally {
      closeSync(fd);
    }
  }

  it('a read-only open of a file unchanged since it was found sound skips the check; a changed file is checked again', () => {
    const { file, time } = makeCatalogue('read-only.sqlite');
    openDatabase(file, { readonly: true }).close();
    damage(file);
    utimesSync(file, time, time);
    // The same file, size and time: not checked again (the app opens an archive for every query).
    openDatabase(file, { readonly: true }).close();
    const later = new Date(time.getTime() + 1000);
    utimesSync(file, later, later);
    assert.throws(() => openDatabase(file, { readonly: true }), CatalogueDamagedError);
  });

  it('a read-only open beside a writer skips the check the writer made when it opened the file', () => {
    const { file } = makeCatalogue('beside-a-writer.sqlite');
    const writer = Catalogue.open(file);
    try {
      damage(file);
      // Checked, it would be refused: the damaged page is one the writer never reads.
      Catalogue.open(file, { readonly: true }).close();
    } finally {
      writer.close();
    }
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    assert.throws(() => Catalogue.open(file, { readonly: true }), CatalogueDamagedError);
  });

  it('an open for writing names the damage of a file unchanged since a sound read-only open', () => {
    const { file, time } = makeCatalogue('writable.sqlite');
    openDatabase(file, { readonly: true }).close();
    damage(file);
    utimesSync(file, time, time);
    assert.throws(() => openDatabase(file), CatalogueDamagedError);
  });
});
