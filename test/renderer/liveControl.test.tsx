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
