import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DbLink, isConnectionLoss } from '../../../electron/engine/cluster/dbLink.js';
import { ClusterWorkerError } from '../../../electron/engine/cluster/errors.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('cluster database link', () => {
  it('tells a lost connection from any other database error', () => {
    assert.ok(isConnectionLoss(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')));
    assert.ok(isConnectionLoss(coded('57P01', 'terminating connection due to administrator command')));
    assert.ok(isConnectionLoss(coded('57P03', 'the database system is starting up')));
    assert.ok(isConnectionLoss(coded('08006')));
    assert.ok(isConnectionLoss(new Error('Connection terminated unexpectedly')));
    assert.ok(!isConnectionLoss(coded('23505', 'duplicate key value violates unique constraint')));
    assert.ok(!isConnectionLoss(coded('42P01', 'relation "urls" does not exist')));
    assert.ok(!isConnectionLoss('ECONNREFUSED'));
  });

  it('logs an outage once when it begins and once when it ends, and gives up past its bound naming the cause', () => {
    let now = 0;
    const lines: string[] = [];
    const link = new DbLink(10_000, (l) => lines.push(l), () => now);
    const refused = coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    link.lost(refused, 'committing lease 7');
    now = 9_000;
    link.lost(refused, 'sending its heartbeat');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^lost the harvest database while committing lease 7 \(connect ECONNREFUSED 127\.0\.0\.1:5432\): .*for up to 10 s/);
    assert.ok(link.down);
    now = 9_500;
    link.reached();
    assert.ok(!link.down);
    assert.match(lines[1]!, /answers again after 9\.5 s/);
    // A new outage has a bound of its own.
    now = 20_000;
    link.lost(refused, 'looking for work');
    now = 29_999;
    link.lost(refused, 'looking for work');
    now = 30_000;
    assert.throws(
      () => link.lost(refused, 'looking for work'),
      (e: unknown) => e instanceof ClusterWorkerError && /has not answered for 10 s \(connect ECONNREFUSED 127\.0\.0\.1:5432\): this worker gives up/.test(e.message),
    );
  });

  it('tries an operation again until it reaches the database; other errors pass at once', async () => {
    const link = new DbLink(60_000, () => {});
    let tries = 0;
    const out = await link.retry('x', async () => {
      if (++tries < 3) throw coded('57P03', 'the database system is starting up');
      return 'done';
    });
    assert.equal(out, 'done');
    assert.equal(tries, 3);
    let other = 0;
    await assert.rejects(
      link.retry('x', async () => {
        other++;
        throw coded('23505');
      }),
      { code: '23505' },
    );
    assert.equal(other, 1);
  });
});
