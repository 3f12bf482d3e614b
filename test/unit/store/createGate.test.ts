import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { newCreateGate, oneAtATime } from '../../../electron/engine/store/createGate.js';

// A worker that reports when it is about to go through the gate, then how long it waited there.
const WAITER = `
const { workerData, parentPort } = require('node:worker_threads');
import(workerData.module).then(({ oneAtATime }) => {
  parentPort.postMessage('ready');
  const t = performance.now();
  oneAtATime(workerData.gate, () => {}, 10_000);
  parentPort.postMessage(performance.now() - t);
});`;

describe('createGate', () => {
  it("makes another thread wait until the holder lets go, then lets it through", async () => {
    const gate = newCreateGate();
    Atomics.store(gate, 0, 1);
    const worker = new Worker(WAITER, { eval: true, workerData: { gate, module: new URL('../../../electron/engine/store/createGate.js', import.meta.url).href } });
    const waited = new Promise<number>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (m: unknown) => {
        if (m === 'ready') setTimeout(() => (Atomics.store(gate, 0, 0), Atomics.notify(gate, 0, 1)), 150);
        else resolve(m as number);
      });
    });
    const ms = await waited;
    await worker.terminate();
    assert.ok(ms >= 120, `waited ${ms} ms for a gate held 150 ms`);
    assert.equal(Atomics.load(gate, 0), 0);
  });

  it('goes ahead after its wait when the holder never lets go, and always leaves the gate open', () => {
    const gate = newCreateGate();
    Atomics.store(gate, 0, 1);
    const t = performance.now();
    assert.equal(oneAtATime(gate, () => 'made', 30), 'made');
    assert.ok(performance.now() - t >= 25);
    assert.equal(Atomics.load(gate, 0), 0);
    assert.throws(() => oneAtATime(gate, () => { throw new Error('EACCES'); }), /EACCES/);
    assert.equal(Atomics.load(gate, 0), 0);
    assert.equal(oneAtATime(null, () => 1), 1);
  });
});
