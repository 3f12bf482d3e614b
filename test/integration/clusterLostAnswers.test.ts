import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitBatch, type BatchResult } from '../../electron/engine/cluster/batchCommit.js';
import { leaseBatch, openClusterDb, registerWorker, releaseStrayLeases, type Lease } from '../../electron/engine/cluster/coordination.js';
import { readHarvest } from '../../electron/engine/cluster/schema.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

/** A batch given back whole, counting one request (to see the worker's figures added once). */
function givenBack(lease: Lease): BatchResult {
  return {
    outcomes: lease.urls.map((u) => ({ id: u.id, state: 'released' as const })),
    pageRequests: [],
    discoveries: [],
    seedRedirects: [],
    fetched: 1,
    bytes: 0,
    failures: 0,
    pages: 0,
    focus: null,
  };
}

/**
 * A transaction whose COMMIT reached PostgreSQL while its answer was lost with the connection (a
 * restart at that moment): the worker tries the commit again, or never learns of a lease it took.
 */
describe('cluster transactions whose answer was lost', { timeout: 120_000 }, () => {
  let postgres: ThrowawayPostgres;

  before(async () => {
    postgres = await startPostgres();
  });

  after(async () => {
    await postgres?.stop();
  });

  it('a batch committed twice is recorded once and not taken for a lease taken back; a lease the worker never heard of is given back', async () => {
    // Nothing is fetched: the sites only have to be known to the harvest.
    const [a, b] = ['http://127.0.0.1:9', 'http://127.0.0.2:9'];
    const init = await runHarvest(['cluster', 'init', '--db', postgres.url, '--name', 'lost', '--lease-timeout', '600', `${a}/`, `${b}/`]);
    assert.equal(init.status, 0, init.stderr);
    const db = await openClusterDb(postgres.url);
    try {
      const { job } = await readHarvest(db);
      await registerWorker(db, 'w1', 2, 600_000);
      const first = await leaseBatch(db, 'w1', a, 5, null, job.limits);
      assert.ok(first !== null);
      assert.equal(await commitBatch(db, 'w1', first, givenBack(first), 100), true);
      assert.equal(await commitBatch(db, 'w1', first, givenBack(first), 100), true, 'the commit tried again is taken for a takeover');
      assert.deepEqual(await query(postgres.url, `SELECT fetched FROM workers WHERE id = 'w1'`), [{ fetched: '1' }]);

      // w1 holds the batch of site a; the answer to its lease of site b was lost.
      const inHand = await leaseBatch(db, 'w1', a, 5, null, job.limits);
      const stray = await leaseBatch(db, 'w1', b, 5, null, job.limits);
      assert.ok(inHand !== null && stray !== null);
      assert.equal(await releaseStrayLeases(db, 'w1', [inHand.id]), stray.urls.length);
      const urls = await query<{ site: string; state: string }>(postgres.url, 'SELECT site, state FROM urls ORDER BY site');
      assert.deepEqual(urls, [
        { site: a, state: 'leased' },
        { site: b, state: 'queued' },
      ]);
      assert.deepEqual(await query(postgres.url, 'SELECT site, holder FROM sites ORDER BY site'), [
        { site: a, holder: 'w1' },
        { site: b, holder: null },
      ]);
      assert.equal(await commitBatch(db, 'w1', inHand, givenBack(inHand), 100), true, 'the batch in hand still commits');
    } finally {
      await db.end();
    }
  });
});
