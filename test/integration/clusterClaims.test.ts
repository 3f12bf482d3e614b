import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BatchResult } from '../../electron/engine/cluster/batchCommit.js';
import { commitBatch } from '../../electron/engine/cluster/batchCommit.js';
import { controlCluster } from '../../electron/engine/cluster/clusterControl.js';
import { claimOwnSites, leaseBatch, openClusterDb, registerWorker, type Lease } from '../../electron/engine/cluster/coordination.js';
import { readHarvest } from '../../electron/engine/cluster/schema.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

/** A batch given back whole: its URLs return to the queue and its site is let go. */
function givenBack(lease: Lease): BatchResult {
  return {
    outcomes: lease.urls.map((u) => ({ id: u.id, state: 'released' as const })),
    pageRequests: [],
    discoveries: [],
    seedRedirects: [],
    fetched: 0,
    bytes: 0,
    failures: 0,
    pages: 0,
    focus: null,
  };
}

describe("a site asked back by its own worker (sites.claimed_by)", { timeout: 120_000 }, () => {
  let postgres: ThrowawayPostgres;

  before(async () => {
    postgres = await startPostgres();
  });

  after(async () => {
    await postgres?.stop();
  });

  it('is held back from the worker that took it while the asker leases, and no longer once the asker stands by', async () => {
    // Nothing is fetched: the site only has to be known to the harvest.
    const site = 'http://127.0.0.1:9';
    // A long lease timeout: this test process sends no heartbeats.
    const init = await runHarvest(['cluster', 'init', '--db', postgres.url, '--name', 'claims', '--lease-timeout', '600', `${site}/`, `${site}/a`]);
    assert.equal(init.status, 0, init.stderr);
    const db = await openClusterDb(postgres.url);
    try {
      const { job } = await readHarvest(db);
      const lease = (w: string) => leaseBatch(db, w, site, 1, null, job.limits);
      await registerWorker(db, 'w1', 2, 600_000);
      await registerWorker(db, 'w2', 2, 600_000);
      // w1 took the site while w2 was not there yet; w2, its own worker by the hash, asks for it back.
      const first = await lease('w1');
      assert.ok(first !== null);
      await claimOwnSites(db, 'w2', (s) => s === site);
      assert.ok(await commitBatch(db, 'w1', first, givenBack(first), 100));
      assert.equal(await lease('w1'), null, 'w1 leases the site again although w2 asked for it');
      // `harvest control --workers 1` puts w2 on standby before it took the site: w2 will not lease
      // it, so its claim must not keep w1 from it either (the harvest would never finish).
      await controlCluster(db, { activeWorkers: 1 });
      const again = await lease('w1');
      assert.ok(again !== null, `w1 cannot lease the site: ${JSON.stringify(await query(postgres.url, 'SELECT site, holder, claimed_by FROM sites'))}`);
      assert.deepEqual(await query(postgres.url, 'SELECT holder, claimed_by FROM sites'), [{ holder: 'w1', claimed_by: null }]);
    } finally {
      await db.end();
    }
  });
});
