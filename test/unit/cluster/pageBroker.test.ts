import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { parseJob } from '../../../shared/job.js';
import { ClusterAdmission } from '../../../electron/engine/cluster/admission.js';
import type { BatchResult } from '../../../electron/engine/cluster/batchCommit.js';
import type { BatchTools } from '../../../electron/engine/cluster/batchRun.js';
import { FetchTimes } from '../../../electron/engine/cluster/batchSize.js';
import type { LeasedUrl } from '../../../electron/engine/cluster/coordination.js';
import { PageBroker, RecentDocuments } from '../../../electron/engine/cluster/pageBroker.js';
import type { DocumentPool } from '../../../electron/engine/crawl/documentPool.js';
import { RequestHeaders } from '../../../electron/engine/crawl/requestHeaders.js';
import type { Fetcher, FetchResponse } from '../../../electron/engine/fetch/fetcher.js';
import { HostGateRegistry } from '../../../electron/engine/politeness/hostGate.js';
import { ALLOW_ALL } from '../../../electron/engine/politeness/robots.js';

const SEED = 'https://a.test/';
const IMAGE = 'https://a.test/img/logo.png';
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

/** A pool whose every query rejects with `error`, counting the queries. */
function failingPool(error: Error): { pool: pg.Pool; queries: () => number } {
  let n = 0;
  const pool = {
    query: () => {
      n++;
      return Promise.reject(error);
    },
  } as unknown as pg.Pool;
  return { pool, queries: () => n };
}

function response(url: string): FetchResponse {
  return {
    url,
    status: 200,
    statusText: 'OK',
    httpVersion: '1.1',
    headers: { 'content-type': 'image/png' },
    rawHeaders: [],
    contentType: 'image/png',
    location: null,
    wireBody: PNG,
    body: PNG,
    remoteAddress: '127.0.0.1',
    startedAt: new Date(),
    durationMs: 5,
  } as unknown as FetchResponse;
}

/** A broker for one rendered page of a.test, with the fetcher, the saving and the database faked. */
function brokerWith(pool: pg.Pool) {
  const job = parseJob({ seeds: [SEED] });
  const fetched: string[] = [];
  const saved: string[] = [];
  const failures: unknown[] = [];
  const tools: BatchTools = {
    job,
    fetcher: {
      fetch: (url: string) => {
        fetched.push(url);
        return Promise.resolve(response(url));
      },
    } as unknown as Fetcher,
    headers: new RequestHeaders(job),
    gates: new HostGateRegistry(),
    warc: null,
    documents: {
      write: (localPath: string) => {
        saved.push(localPath);
        return Promise.resolve(null);
      },
    } as unknown as DocumentPool,
    admission: new ClusterAdmission(job, []),
    times: new FetchTimes(),
    retryBackoffMs: 0,
    signal: new AbortController().signal,
    rendering: null,
    focus: null,
  };
  const page: LeasedUrl = { id: 1, url: SEED, depth: 0, requisite: false, typeHint: null, redirectHops: 0, attempts: 0, score: null };
  const result: BatchResult = { outcomes: [], pageRequests: [], discoveries: [], seedRedirects: [], fetched: 0, bytes: 0, failures: 0, pages: 0, focus: null };
  const broker = new PageBroker(
    tools,
    { db: pool, store: '/nonexistent', robotsFor: () => Promise.resolve(ALLOW_ALL), fail: (e) => failures.push(e), recent: new RecentDocuments() },
    page,
    result,
    new Map(),
  );
  return { broker, fetched, saved, failures, result };
}

const imageRequest = { url: IMAGE, method: 'GET', resourceType: 'image', cors: false };

describe('cluster page broker', () => {
  for (const [name, lost] of [
    ['refused', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['terminated', new Error('Connection terminated unexpectedly')],
    ['shut down', coded('57P01', 'terminating connection due to administrator command')],
  ] as const) {
    it(`answers a rendered page's request with the database out (${name}): fetched, archived for the commit, the worker kept`, async () => {
      const db = failingPool(lost);
      const { broker, fetched, saved, failures, result } = brokerWith(db.pool);
      const answer = await broker.answer(imageRequest, new AbortController().signal);

      assert.deepEqual(failures, [], 'the worker is not stopped');
      assert.ok('response' in answer, `answered, not ${JSON.stringify(answer)}`);
      assert.equal(answer.response.status, 200);
      assert.deepEqual(answer.response.body, PNG);
      assert.equal(db.queries(), 1, 'the URL was looked up');
      assert.deepEqual(fetched, [IMAGE]);
      assert.equal(saved.length, 1);
      // Recorded with the batch, whose commit waits for the database.
      assert.deepEqual(
        result.pageRequests.map((r) => [r.url, r.outcome.state]),
        [[IMAGE, 'archived']],
      );
      assert.equal(result.fetched, 1);
    });
  }

  it('stops the worker on a database error that is not a lost connection', async () => {
    const broken = coded('42P01', 'relation "urls" does not exist');
    const { broker, fetched, failures } = brokerWith(failingPool(broken).pool);
    const answer = await broker.answer(imageRequest, new AbortController().signal);

    assert.deepEqual(failures, [broken]);
    assert.deepEqual(answer, { refused: broken.message });
    assert.deepEqual(fetched, []);
  });
});
