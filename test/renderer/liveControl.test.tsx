import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { LiveControl } from '../../renderer/features/LiveControl/index.js';
import { commandValue } from '../../renderer/stores/command.js';
import { parseJob } from '../../shared/job.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { resetStores } from './helpers/fixtures.js';

const politeness = parseJob({ name: 'x', seeds: ['http://127.0.0.1:1/'] }).politeness;

describe('politeness while running', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    api = fakeApi({ 'jobs.control': () => ok(null as never) });
    setApi(api);
  });
  afterEach(cleanup);

  it('sends only a real change, a fixed delay or the adaptive one, and says what is in force', async () => {
    render(<LiveControl politeness={politeness} apply={async (control) => (await commandValue('jobs.control', { id: 'j1', control })) !== null} />);
    assert.match(screen.getByTestId('live-control').textContent ?? '', /Now: 2 connections per host, adaptive delay/);
    const apply = screen.getByTestId('live-apply') as HTMLButtonElement;
    assert.equal(apply.disabled, true, 'nothing changed yet');
    fireEvent.change(screen.getByTestId('live-connections'), { target: { value: '6' } });
    fireEvent.click(screen.getByTestId('live-adaptive'));
    fireEvent.change(screen.getByTestId('live-delay'), { target: { value: '400' } });
    await act(async () => {
      fireEvent.click(apply);
    });
    assert.deepEqual(api.callsTo('jobs.control'), [{ id: 'j1', control: { perHostConnections: 6, delayMs: 400 } }]);
    fireEvent.change(screen.getByTestId('live-connections'), { target: { value: '0' } });
    assert.equal((screen.getByTestId('live-apply') as HTMLButtonElement).disabled, true, 'out of range');
  });
});

describe('the reply to a live change', () => {
  afterEach(cleanup);

  const applied = async (from: typeof politeness, set: (p: typeof politeness) => void): Promise<string> => {
    let shown = from;
    const apply = async (control: { perHostConnections?: number; delayMs?: number | null }) => {
      shown = { ...shown, ...control } as typeof politeness;
      return true;
    };
    const view = render(<LiveControl politeness={from} apply={apply} />);
    set(from);
    await act(async () => {
      fireEvent.click(screen.getByTestId('live-apply'));
    });
    // The crawl took it: the job's politeness comes back changed.
    view.rerender(<LiveControl politeness={shown} apply={apply} />);
    return screen.getByTestId('live-applied').textContent ?? '';
  };

  it('says the delay still limits the rate when only the connections were raised', async () => {
    const text = await applied({ ...politeness, perHostConnections: 2, delayMs: 250 }, () => {
      fireEvent.change(screen.getByTestId('live-connections'), { target: { value: '6' } });
    });
    assert.match(text, /^Applied: now 6 connections per host; the 250 ms delay between requests still limits each host to 4 requests\/s/);
    assert.doesNotMatch(text, /^Applied\.$/);
  });

  it('says an adaptive delay keeps one request at a time, whatever the connections', async () => {
    const text = await applied(politeness, () => {
      fireEvent.change(screen.getByTestId('live-connections'), { target: { value: '6' } });
    });
    assert.match(text, /now 6 connections per host; the adaptive delay .*still limits each host to about one request at a time/);
    assert.match(text, /set a fixed delay/);
  });

  it('says the connections limit the rate when there is no delay', async () => {
    const text = await applied({ ...politeness, perHostConnections: 2, delayMs: 250 }, () => {
      fireEvent.change(screen.getByTestId('live-delay'), { target: { value: '0' } });
    });
    assert.match(text, /now no delay between requests; nothing spaces the requests, so the connections limit each host: up to 2 requests at a time/);
  });
});
