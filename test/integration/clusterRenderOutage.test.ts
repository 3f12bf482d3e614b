import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { exitWithin, killRunning, pendingWork, startWorker, type Worker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startJsSite, type JsSite } from '../helpers/jsSite.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

const CHROMIUM = '/usr/bin/chromium';
/** Requested only by the listing page as the browser renders it: the outage begins as it is answered. */
const SCRIPT = '/static/listing.js';
/** What the script asks for next: the worker looks it up while the database is down. */
const DATA = '/api/items.json';

/**
 * PostgreSQL stopped while a cluster worker renders a page: the page's next requests are looked up
 * with the database out. The worker fetches them, waits for the database, and the harvest ends
 * with the URLs an undisturbed rendered harvest of the same site has.
 */
describe('a rendering cluster worker through a PostgreSQL outage', { timeout: 300_000, skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  let postgres: ThrowawayPostgres;
  let work: string;
  const sites: JsSite[] = [];
  const running: Worker[] = [];

  before(async () => {
    postgres = await startPostgres();
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-render-outage-'));
  });

  after(async () => {
    killRunning(running);
    for (const s of sites) await s.close();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A rendered harvest of `site` by one worker; resolves with the worker, running. */
  async function harvest(name: string, site: JsSite): Promise<{ db: string; worker: Worker }> {
    await query(postgres.url, `CREATE DATABASE ${name}`);
    const db = postgres.url.replace(/\/harvest$/, `/${name}`);
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', name, '--delay-ms', '0', '--render', '--render-pages', '2', '--page-timeout', '20', `${site.origin}/`]);
    assert.equal(init.status, 0, init.stderr);
    const worker = startWorker(db, path.join(work, `store-${name}`), `${name}-w`, '127.0.0.125', ['--browser-path', CHROMIUM]);
    running.push(worker);
    return { db, worker };
  }

  /** Each URL's path and state, the site's origins left out: two sites' harvests compared. */
  async function states(db: string, site: JsSite): Promise<string[]> {
    const rows = await query<{ url: string; state: string }>(db, 'SELECT url, state FROM urls ORDER BY url');
    return rows.map((r) => `${r.url.replace(site.origin, '').replace(site.outsideOrigin, 'outside')} ${r.state}`).sort();
  }

  it('fetches what the page asks for while the database is out, and ends with what an undisturbed harvest has', async () => {
    const calm = await startJsSite();
    sites.push(calm);
    const undisturbed = await harvest('calm', calm);
    assert.equal(await exitWithin(undisturbed.worker, 120_000, () => pendingWork(undisturbed.db)), 0, undisturbed.worker.log());
    const expected = await states(undisturbed.db, calm);
    assert.ok(expected.some((s) => s.startsWith(`${DATA} `)), `the undisturbed harvest has ${DATA}: ${expected.join(', ')}`);

    const fault: { outage: Promise<void> | null } = { outage: null };
    const site = await startJsSite({
      beforeServing: async (url) => {
        if (url !== SCRIPT || fault.outage !== null) return;
        fault.outage = postgres.down();
        await fault.outage.catch(() => {});
      },
    });
    sites.push(site);
    const { db, worker } = await harvest('interrupted', site);
    try {
      // Bounded: the script's request comes once the listing page renders.
      const until = Date.now() + 60_000;
      while (fault.outage === null) {
        assert.ok(Date.now() < until, `the listing page's script was never requested in 60 s; the worker's log:\n${worker.log()}`);
        await sleep(50);
      }
      await fault.outage;
      // The page's data requested from the site: looked up with the database out, then fetched.
      while (!site.requests.includes(`GET ${DATA}`) && worker.child.exitCode === null) {
        assert.ok(Date.now() < until, `${DATA} was never requested in 60 s; the worker's log:\n${worker.log()}`);
        await sleep(50);
      }
    } finally {
      await postgres.up();
    }
    assert.equal(await exitWithin(worker, 120_000, () => pendingWork(db)), 0, worker.log());

    assert.deepEqual(await states(db, site), expected);
    assert.doesNotMatch(worker.log(), /\n\s+at /, 'no stack trace');
  });
});
