import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { TextWriter } from '../../../electron/engine/crawl/textWriter.js';
import { cleanText } from '../../../electron/engine/parse/pageText.js';
import { packText } from '../../../electron/engine/store/packedText.js';
import { TextIndex } from '../../../electron/engine/store/textIndex.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-textwriter-'));
const place = (urlId: number) => ({ urlId, url: `https://x.org/${urlId}`, capture: 1, kind: 'html' as const, fetchedAt: '2026-01-02T03:04:05.000Z' });
const text = (body: string) => packText({ title: '', headings: '', body: cleanText(body) });

describe('TextWriter', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps its texts for the next commit when another writer holds the index past the busy timeout", { timeout: 120_000 }, async () => {
    const file = TextIndex.fileIn(dir);
    const writer = new TextWriter(file);
    writer.add(place(1), text('first page'));
    await writer.flush();
    const other = new Database(file, { timeout: 0 });
    other.exec('BEGIN IMMEDIATE');
    writer.add(place(2), text('second page'));
    // The writer's timed commit (after 1 s) waits out its 5 s busy timeout on this thread and fails;
    // this later timer runs only after it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    other.exec('COMMIT');
    other.close();
    await writer.flush(true);
    const check = new Database(file, { readonly: true });
    assert.deepEqual(check.prepare('SELECT url_id FROM text_docs ORDER BY url_id').pluck().all(), [1, 2]);
    check.close();
  });

  it('commits at once, not a second later, once 4 M characters of text wait', { timeout: 120_000 }, async (t) => {
    const file = path.join(dir, 'at-once.sqlite');
    // The one-second timer never fires here: only the amount of text waiting can start the commit.
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const writer = new TextWriter(file);
    const indexed = () => {
      const db = new Database(file, { readonly: true, fileMustExist: false });
      try {
        return db.prepare('SELECT url_id FROM text_docs ORDER BY url_id').pluck().all();
      } catch {
        return [];
      } finally {
        db.close();
      }
    };
    writer.add(place(1), text('a small page'));
    const large = text(Array.from({ length: 500_000 }, (_, i) => `word${i}`).join(' '));
    assert.ok(large.body.length > 4 * 1024 * 1024, `${large.body.length} characters`);
    writer.add(place(2), large);
    let rows: unknown[] = [];
    for (let turns = 0; turns < 100_000 && rows.length < 2; turns++) {
      await nextTurn();
      if (turns % 100 === 0) rows = existsSync(file) ? indexed() : [];
    }
    assert.deepEqual(rows, [1, 2], 'both texts committed without the timer');
    await writer.flush(true);
  });
});

