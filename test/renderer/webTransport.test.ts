import './helpers/dom.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWebTransport } from '../../renderer/api/webTransport.js';
import type { HostEvent } from '../../shared/contract.js';

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
}

const BASE = '/t/abcdefghijklmnop1234/';

describe('web transport', () => {
  it('posts commands as JSON to the command URL and returns the reply', async () => {
    const requests: { url: string; body: string }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      requests.push({ url, body: String(init.body) });
      return new Response(JSON.stringify({ ok: true, value: { sentAtMs: 7 } }));
    }) as unknown as typeof fetch;
    const api = createWebTransport(BASE, { fetch: fetchFn, EventSource: FakeEventSource as unknown as typeof EventSource });
    const reply = await api['app.ping']({ sentAtMs: 7 });
    assert.deepEqual(reply, { ok: true, value: { sentAtMs: 7 } });
    assert.deepEqual(requests, [{ url: `${BASE}api/app.ping`, body: '{"sentAtMs":7}' }]);
  });

  it('turns a network failure into an error reply', async () => {
    const fetchFn = (async () => {
      throw new TypeError('connection refused');
    }) as unknown as typeof fetch;
    const api = createWebTransport(BASE, { fetch: fetchFn, EventSource: FakeEventSource as unknown as typeof EventSource });
    const reply = await api['jobs.list']({});
    assert.equal(reply.ok, false);
  });

  it('delivers events, reopens a refused stream and reports reconnects', async () => {
    FakeEventSource.instances = [];
    const api = createWebTransport(BASE, { fetch: fetch, EventSource: FakeEventSource as unknown as typeof EventSource, retryDelayMs: 1 });
    const got: HostEvent[] = [];
    let reconnects = 0;
    api.onReconnect?.(() => reconnects++);
    const off = api.onEvent((e) => got.push(e));
    const first = FakeEventSource.instances[0];
    assert.equal(first?.url, `${BASE}api/events`);
    first?.onopen?.();
    first?.onmessage?.({ data: JSON.stringify({ type: 'job-deleted', id: 'j1' }) });
    first?.onmessage?.({ data: 'not json' });
    assert.deepEqual(got, [{ type: 'job-deleted', id: 'j1' }]);
    assert.equal(reconnects, 0);

    first!.readyState = 2;
    first?.onerror?.();
    await new Promise((r) => setTimeout(r, 10));
    const second = FakeEventSource.instances[1];
    assert.ok(second, 'a new stream is opened');
    second.onopen?.();
    assert.equal(reconnects, 1);

    off();
    assert.equal(second.closed, true);
  });
});
