import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Settings } from '../../renderer/features/Settings/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 10)));

describe('settings', () => {
  let api: FakeApi;
  let closed = 0;
  let saved: string | null = null;

  beforeEach(() => {
    resetStores();
    closed = 0;
    saved = 'https://old.example/contact';
    api = fakeApi({
      'settings.get': () => ok({ contact: saved }),
      'settings.set': (a) => {
        saved = a.settings.contact ?? null;
        return ok({ contact: saved });
      },
      'app.info': () => {
        const info = appInfo('web');
        return ok({ ...info, defaults: { ...info.defaults, contactUrl: saved } });
      },
    });
    setApi(api);
  });
  afterEach(cleanup);

  it("saves the institution's contact, which new jobs' defaults then carry", async () => {
    render(<Settings onClose={() => closed++} />);
    await settle();
    const input = screen.getByTestId('settings-contact') as HTMLInputElement;
    assert.equal(input.value, 'https://old.example/contact');
    fireEvent.change(input, { target: { value: 'archive@library.example' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('settings-save'));
    });
    await settle();
    assert.deepEqual(api.callsTo('settings.set'), [{ settings: { contact: 'archive@library.example' } }]);
    assert.equal(useApp.getState().info?.defaults.contactUrl, 'archive@library.example');
    assert.equal(closed, 1);
  });

  it('refuses what is neither a URL nor an e-mail address, and an empty field means none', async () => {
    render(<Settings onClose={() => closed++} />);
    await settle();
    fireEvent.change(screen.getByTestId('settings-contact'), { target: { value: 'call us' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('settings-save'));
    });
    assert.match(screen.getByTestId('settings-contact-issues').textContent ?? '', /URL or an e-mail address/);
    assert.equal(api.callsTo('settings.set').length, 0);
    fireEvent.change(screen.getByTestId('settings-contact'), { target: { value: '' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('settings-save'));
    });
    await settle();
    assert.deepEqual(api.callsTo('settings.set'), [{ settings: { contact: null } }]);
  });
});
