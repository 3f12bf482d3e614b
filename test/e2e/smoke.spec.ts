import type { AppInfo } from '../../shared/appViews.js';
import { archiveBase } from '../../shared/frameLocation.js';
import { expect, harvestJob, test } from './fixtures.js';

test('the app page loads and app.info answers through the HTTP API, all on 127.0.0.1', async ({ page, harvest, api, offsiteRequests }) => {
  const res = await page.goto(harvest.url);
  // Before the renderer is built the host answers a clear 404 instead of the app.
  if (res!.status() === 404) await expect(page.locator('body')).toContainText('not built');
  else expect(res!.status()).toBe(200);

  const info = await api<AppInfo>('app.info');
  expect(info.ok).toBe(true);
  if (!info.ok) return;
  expect(info.value.host).toBe('web');
  expect(info.value.dataDir).toBe(harvest.dataDir);
  expect(new URL(archiveBase(info.value.viewerBase, 'j1')).hostname).toBe('j1.localhost');

  const ping = await api<{ sentAtMs: number }>('app.ping', { sentAtMs: 42 });
  expect(ping).toEqual({ ok: true, value: { sentAtMs: 42 } });
  expect(offsiteRequests).toEqual([]);
});

test('an archived page is served offline from the viewer listener, in a frame only, and cannot reach the internet', async ({ page, harvest, site, api, offsiteRequests }) => {
  const { id } = await harvestJob(api, { name: 'E2E site', seeds: [`${site.origin}/`], limits: { maxPages: 10 }, politeness: { delayMs: 0 } });
  const info = await api<AppInfo>('app.info');
  if (!info.ok) throw new Error(info.error.message);
  const base = archiveBase(info.value.viewerBase, id);
  // A top-level tab gets no archived page (it could navigate anywhere).
  expect((await page.goto(`${base}index.html`))!.status()).toBe(403);
  await page.goto(harvest.url);
  const served = page.waitForResponse((r) => r.url().endsWith('/index.html') && r.status() === 200);
  await page.evaluate(
    (src) =>
      new Promise<void>((resolve) => {
        const f = document.createElement('iframe');
        f.name = 'archived';
        f.sandbox.value = 'allow-scripts allow-same-origin';
        f.onload = () => resolve();
        f.src = src;
        document.body.append(f);
      }),
    `${base}index.html`,
  );
  const res = await served;
  const frame = page.frame({ name: 'archived' })!;
  // The job's own origin: a host name of its own, which the browser sends to loopback.
  const own = new URL(frame.url());
  expect(own.hostname).toBe(`${id}.localhost`);
  expect(res.headers()['content-security-policy']).toContain(`connect-src ${own.origin}/`);
  // A script in an archived page trying the network is stopped by the archive's CSP.
  const escaped = await frame.evaluate(async () => {
    try {
      await fetch('http://127.0.0.1:9/');
      return true;
    } catch {
      return false;
    }
  });
  expect(escaped).toBe(false);
  expect(offsiteRequests).toEqual([]);
});
