import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import type { FocusReport } from '../../shared/extracted.js';
import { WEB_SHELL_ACTIONS } from '../../electron/host/commands.js';
import { startEngineHost, type EngineHost } from '../../electron/host/engineHost.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { FocusStore } from '../../electron/engine/store/focusStore.js';
import { FLOOD_TEMPLATE, startFocusSite, type FocusSite } from '../helpers/focusSite.js';
import { EventLog } from '../helpers/hostEvents.js';

function value<T>(r: Reply<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** The catalogue's focus_distinct rows (as URLs) and one page's verdict, read from the archive itself. */
function catalogue(dir: string, url: string): { distinct: string[]; state: string | null } {
  const archive = Archive.open(dir, { readonly: true });
  try {
    const db = archive.catalogue.sqlite;
    const distinct = (db.prepare('SELECT u.url FROM focus_distinct d JOIN urls u ON u.id = d.url_id ORDER BY u.url').all() as { url: string }[]).map((r) => r.url);
    const row = archive.catalogue.lookup(url);
    return { distinct, state: row === undefined ? null : new FocusStore(archive.catalogue).stateOf(row.id) };
  } finally {
    archive.close();
  }
}

describe('focus report and near-duplicate marks through the host', () => {
  let work: string;
  let site: FocusSite;
  let host: EngineHost;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-focus-host-'));
    site = await startFocusSite();
    host = startEngineHost({ dataDir: path.join(work, 'data'), exporters: {}, shell: { host: 'web', viewerBase: 'http://127.0.0.1:1/x/', ...WEB_SHELL_ACTIONS }, progressIntervalMs: 50 });
  });

  after(async () => {
    await host?.shutdown();
    await site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('reads the report, marks a print version not a duplicate (and back) in the catalogue, and the re-crawl judges it an original', async () => {
    const log = new EventLog();
    host.onEvent(log.listener);
    const job = value<JobSummary>(
      await host.handle('jobs.create', { job: { name: 'Floods', seeds: site.truth.origins.map((o) => `${o}/`), politeness: { delayMs: 0 }, template: FLOOD_TEMPLATE } }),
    );
    let done = log.jobStatus(job.id, 'finished');
    value(await host.handle('jobs.start', { id: job.id }));
    await done;

    const report = value<FocusReport>(await host.handle('archives.focusReport', { id: job.id }));
    for (const [url, of] of site.truth.nearDuplicates) {
      const copy = report.nearDuplicates.find((g) => g.original === of)?.copies.find((c) => c.url === url);
      assert.ok(copy && copy.similarity > 0.8 && !copy.notDuplicate, url);
    }
    const [print, ...others] = [...site.truth.nearDuplicates.keys()];
    assert.ok(print !== undefined && others.length > 0);

    // Refused: a page that is no near-duplicate, and an unmark of a page not marked.
    const notFlagged = await host.handle('archives.markNotDuplicate', { id: job.id, url: site.truth.chain.stop, notDuplicate: true });
    assert.equal(notFlagged.ok ? null : notFlagged.error.code, 'not-found');
    const notMarked = await host.handle('archives.markNotDuplicate', { id: job.id, url: print, notDuplicate: false });
    assert.equal(notMarked.ok ? null : notMarked.error.code, 'not-found');
    assert.deepEqual(catalogue(job.archiveDir, print).distinct, []);

    assert.deepEqual(value(await host.handle('archives.markNotDuplicate', { id: job.id, url: print, notDuplicate: true })), { url: print, notDuplicate: true });
    assert.deepEqual(catalogue(job.archiveDir, print), { distinct: [print], state: 'near-duplicate' }, 'marked, still flagged in this capture');
    const marked = value<FocusReport>(await host.handle('archives.focusReport', { id: job.id }));
    assert.equal(marked.nearDuplicates.flatMap((g) => g.copies).find((c) => c.url === print)?.notDuplicate, true);
    // Undo, then mark again.
    value(await host.handle('archives.markNotDuplicate', { id: job.id, url: print, notDuplicate: false }));
    assert.deepEqual(catalogue(job.archiveDir, print).distinct, []);
    value(await host.handle('archives.markNotDuplicate', { id: job.id, url: print, notDuplicate: true }));

    done = log.jobStatus(job.id, 'finished');
    value(await host.handle('jobs.recrawl', { id: job.id }));
    await done;
    assert.deepEqual(catalogue(job.archiveDir, print), { distinct: [print], state: 'relevant' }, 'the re-crawl judged the marked page as an original');
    for (const url of others) assert.equal(catalogue(job.archiveDir, url).state, 'near-duplicate', url);
    const again = value<FocusReport>(await host.handle('archives.focusReport', { id: job.id }));
    const copies = again.nearDuplicates.flatMap((g) => g.copies.map((c) => c.url));
    assert.ok(!copies.includes(print));
    for (const url of others) assert.ok(copies.includes(url), url);
  });
});
