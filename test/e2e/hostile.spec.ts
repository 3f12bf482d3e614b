import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Frame, Page } from '@playwright/test';
import type { AppInfo, JobSummary } from '../../shared/appViews.js';
import { archiveBase } from '../../shared/frameLocation.js';
import { expect, test } from './fixtures.js';

/**
 * A hostile site, harvested, then opened in the browser host: each page tries one way out of the
 * archive. Every address involved is on 127.0.0.0/8 and started by this file.
 */
interface Hostile {
  origin: string;
  /** The "outside" server's address. */
  escapesUrl: string;
  /** Requests that reached the "outside" server: an archived page got out. */
  escapes: string[];
  /** UDP packets that reached the "STUN server" on 127.0.0.2. */
  stunPackets: () => number;
  close(): Promise<void>;
}

async function startHostileSite(): Promise<Hostile> {
  const escapes: string[] = [];
  const outside = createServer((req, res) => {
    escapes.push(req.url ?? '');
    res.end('outside');
  });
  await new Promise<void>((r) => outside.listen(0, '127.0.0.1', r));
  const outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
  const udp: Socket = createSocket('udp4');
  let packets = 0;
  udp.on('message', () => packets++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.2', r));
  const stun = `stun:127.0.0.2:${udp.address().port}`;

  const page = (title: string, script: string, body = '') => `<!doctype html><html><head><title>${title}</title></head><body>${body}<script>${script}</script></body></html>`;
  const pages: Record<string, string> = {
    '/': page('Hostile home', '', ['sw', 'rtc', 'rtcblank', 'store', 'cookie', 'top', 'spoof', 'other'].map((p) => `<a href="/${p}.html">${p}</a>`).join(' ')),
    // Registers a worker that would answer every later page of the folder without Harvest's CSP.
    '/sw.html': page(
      'sw',
      `navigator.serviceWorker.register('sw.js').then(() => { document.body.dataset.result = 'registered'; }, () => { document.body.dataset.result = 'refused'; });`,
      '<script src="sw.js"></script>',
    ),
    '/sw.js': `if (typeof window === 'undefined') self.addEventListener('fetch', (e) => e.respondWith(new Response('<p id="owned">owned</p>', { headers: { 'Content-Type': 'text/html' } })));`,
    '/rtc.html': page(
      'rtc',
      `try {
        const pc = new RTCPeerConnection({ iceServers: [{ urls: '${stun}' }] });
        pc.createDataChannel('x');
        pc.createOffer().then((o) => pc.setLocalDescription(o)).then(() => { document.body.dataset.result = 'gathering'; }, (e) => { document.body.dataset.result = 'failed ' + e; });
      } catch (e) { document.body.dataset.result = 'blocked ' + e; }`,
    ),
    // Takes a fresh RTCPeerConnection from an about:blank frame of its own, where no script of the host removed it.
    '/rtcblank.html': page(
      'rtcblank',
      `const f = document.createElement('iframe');
       document.body.append(f);
       const pc = new f.contentWindow.RTCPeerConnection({ iceServers: [{ urls: '${stun}' }] });
       pc.createDataChannel('x');
       pc.createOffer().then((o) => pc.setLocalDescription(o)).then(() => { document.body.dataset.result = 'gathering'; });`,
    ),
    // A host-only cookie, one for every *.localhost name, then as many 4 kB cookies as Chromium keeps.
    '/cookie.html': page(
      'cookie',
      `document.cookie = 'own=1; path=/';
       document.cookie = 'shared=1; domain=localhost; path=/';
       for (let i = 0; i < 180; i++) document.cookie = 'bomb' + i + '=' + 'x'.repeat(4000) + '; path=/';
       document.body.dataset.result = 'set';`,
    ),
    '/store.html': page('store', `document.body.dataset.result = localStorage.getItem('k') ?? 'none'; localStorage.setItem('k', location.origin);`),
    '/top.html': page('top', `setTimeout(() => { location.href = '${outsideUrl}/escaped'; }, 100);`),
    // Names another page of the same archive in the viewer's location message.
    '/spoof.html': page(
      'Spoof',
      `const forged = location.href.replace('spoof.html', 'other.html');
       for (const delay of [0, 300, 800]) setTimeout(() => { parent.postMessage({ type: 'harvest:location', href: forged }, '*'); top.postMessage({ type: 'harvest:location', href: forged }, '*'); }, delay);`,
      '<h1 id="spoof">the spoofing page</h1><a id="go" href="other.html">other</a>',
    ),
    '/other.html': page('Other', '', '<h1>the other page</h1>'),
  };
  const site: Server = createServer((req, res) => {
    const body = pages[(req.url ?? '/').split('?')[0]!];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': req.url!.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    escapesUrl: outsideUrl,
    escapes,
    stunPackets: () => packets,
    async close() {
      udp.close();
      for (const s of [site, outside]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

const SHOTS = path.join('test-results', 'screenshots');

/**
 * Playwright turns off Chromium's third-party storage partitioning (its own list of disabled
 * features, repeated here without that one); a user's Chromium has it on, and there a framed archive
 * (another site than the app) gets storage of its own. The last --disable-features wins.
 */
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch',
    ],
  },
});

test.describe('archived pages stay sealed in the browser host', () => {
  let hostile: Hostile;
  test.beforeAll(async () => {
    hostile = await startHostileSite();
  });
  test.afterAll(async () => {
    await hostile.close();
  });

  /** Crawls the hostile site; its pages' own scripts run only when `scripts` (the archivist's "Allow scripts"). */
  async function harvestHostile(
    api: <T>(c: 'jobs.create' | 'jobs.start' | 'jobs.list' | 'app.info' | 'archives.setScripts', a?: Record<string, unknown>) => Promise<{ ok: boolean; value?: T }>,
    name: string,
    scripts = true,
  ) {
    const created = await api<JobSummary>('jobs.create', { job: { name, seeds: [`${hostile.origin}/`], politeness: { respectRobots: false } } });
    const id = created.value!.id;
    await api('jobs.start', { id });
    await expect
      .poll(async () => (await api<JobSummary[]>('jobs.list')).value!.find((j) => j.id === id)?.status, { timeout: 60_000 })
      .toBe('finished');
    if (scripts) expect((await api('archives.setScripts', { id, allowed: true })).ok).toBe(true);
    const info = (await api<AppInfo>('app.info')).value!;
    const host = new URL(hostile.origin).host.replace(':', '_');
    return { id, base: `${archiveBase(info.viewerBase, id)}${host}/` };
  }

  /** Shows an archived file in a frame of the app page, sandboxed as the viewer's frame is. */
  async function inFrame(page: Page, url: string): Promise<Frame> {
    const name = `f${Math.random().toString(36).slice(2)}`;
    await page.evaluate(
      ({ url, name }) =>
        new Promise<void>((resolve) => {
          const f = document.createElement('iframe');
          f.name = name;
          f.sandbox.value = 'allow-scripts allow-forms allow-same-origin';
          f.referrerPolicy = 'no-referrer';
          f.onload = () => resolve();
          f.src = url;
          document.body.append(f);
        }),
      { url, name },
    );
    return page.frame({ name })!;
  }

  const resultOf = async (frame: Frame) => {
    await expect.poll(() => frame.evaluate(() => document.body.dataset.result ?? null)).not.toBeNull();
    return frame.evaluate(() => document.body.dataset.result);
  };

  test('a service worker is refused, so it cannot answer later pages', async ({ page, harvest, api, offsiteRequests }) => {
    const a = await harvestHostile(api as never, 'Hostile SW');
    await page.goto(harvest.url);
    expect(await resultOf(await inFrame(page, `${a.base}sw.html`))).toBe('refused');
    const next = await inFrame(page, `${a.base}other.html`);
    await expect(next.locator('#owned')).toHaveCount(0);
    await expect(next.locator('h1')).toHaveText('the other page');
    expect(offsiteRequests).toEqual([]);
  });

  test('WebRTC cannot send packets to another address', async ({ page, harvest, api }) => {
    const a = await harvestHostile(api as never, 'Hostile RTC');
    await page.goto(harvest.url);
    const frame = await inFrame(page, `${a.base}rtc.html`);
    expect(await resultOf(frame)).toMatch(/^blocked/);
    await page.waitForTimeout(2500);
    expect(hostile.stunPackets()).toBe(0);
  });

  test("one archive's pages cannot read another's localStorage", async ({ page, harvest, api }) => {
    const a = await harvestHostile(api as never, 'Hostile store A');
    const b = await harvestHostile(api as never, 'Hostile store B');
    await page.goto(harvest.url);
    const first = await inFrame(page, `${a.base}store.html`);
    expect(await resultOf(first)).toBe('none');
    const originA = new URL(first.url()).origin;
    expect(await resultOf(await inFrame(page, `${a.base}store.html`))).toBe(originA);
    const inB = await inFrame(page, `${b.base}store.html`);
    expect(await resultOf(inB)).toBe('none');
    expect(new URL(inB.url()).origin).not.toBe(originA);
  });

  test('an archived page opened as a top-level tab is not served, so it cannot navigate away', async ({ page, api }) => {
    const a = await harvestHostile(api as never, 'Hostile top');
    const before = hostile.escapes.length;
    const res = await page.goto(`${a.base}top.html`);
    expect(res!.status()).toBe(403);
    await expect(page.locator('body')).toContainText(/only inside Harvest's viewer/);
    await page.waitForTimeout(1000);
    expect(hostile.escapes.slice(before)).toEqual([]);
  });

  test("a page cannot put another page's address in the viewer's URL bar", async ({ page, harvest, api }) => {
    const a = await harvestHostile(api as never, 'Hostile spoof');
    await page.goto(harvest.url);
    await page.getByTestId('nav-library').click();
    await page.locator(`[data-testid="archive-row"][data-job-id="${a.id}"]`).getByTestId('archive-open').click();
    const spoofUrl = `${hostile.origin}/spoof.html`;
    await page.locator(`[data-testid="page-item"][title="${spoofUrl}"]`).click();
    const urlBar = page.getByTestId('viewer-url');
    await expect(urlBar).toHaveValue(spoofUrl);
    await expect(page.frameLocator('[data-testid="viewer-frame"]').locator('#spoof')).toBeVisible();
    await page.waitForTimeout(1500);
    await expect(urlBar).toHaveValue(spoofUrl);

    await page.screenshot({ path: path.join(SHOTS, 'viewer-spoof-refused.png') });

    // A link followed inside the page still updates the bar, from the frame's own navigation.
    await page.frameLocator('[data-testid="viewer-frame"]').locator('#go').click();
    await expect(urlBar).toHaveValue(`${hostile.origin}/other.html`);
  });

  /** Opens an archived page of the hostile site in the app's viewer and returns the viewer's frame. */
  async function inViewer(page: Page, harvestUrl: string, jobId: string, pagePath: string): Promise<Frame> {
    await page.goto(harvestUrl);
    await page.getByTestId('nav-library').click();
    await page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`).getByTestId('archive-open').click();
    await page.locator(`[data-testid="page-item"][title="${hostile.origin}${pagePath}"]`).click();
    await expect(page.getByTestId('viewer-url')).toHaveValue(`${hostile.origin}${pagePath}`);
    // The URL bar changes at the click; the frame's navigation commits a moment later.
    let frame: Frame | undefined;
    await expect.poll(() => (frame = page.frames().find((f) => f.url().includes(pagePath.replace('/', '')))) !== undefined, { message: `a frame showing ${pagePath}` }).toBe(true);
    await frame!.waitForLoadState();
    return frame!;
  }

  test("a cookie set by one archive reaches neither another archive nor the app, and a cookie bomb leaves the API working", async ({ page, harvest, api, context }) => {
    const a = await harvestHostile(api as never, 'Hostile cookie A');
    const b = await harvestHostile(api as never, 'Hostile cookie B');
    await page.goto(harvest.url);
    expect(await resultOf(await inFrame(page, `${a.base}cookie.html`))).toBe('set');
    expect(await context.cookies([harvest.url])).toEqual([]);
    expect(await context.cookies([`${b.base}other.html`])).toEqual([]);
    const inB = await inFrame(page, `${b.base}other.html`);
    expect(await inB.evaluate(() => document.cookie)).toBe('');
    expect((await api('app.info')).ok).toBe(true);
    expect((await page.reload())!.status()).toBe(200);
  });

  test('WebRTC from an about:blank frame sends nothing while the archive\'s scripts are off, and the viewer says they are off', async ({ page, harvest, api }) => {
    const a = await harvestHostile(api as never, 'Hostile RTC blank', false);
    const before = hostile.stunPackets();
    const frame = await inViewer(page, harvest.url, a.id, '/rtcblank.html');
    const notice = page.getByTestId('viewer-scripts');
    await expect(notice).toHaveAttribute('data-allowed', 'false');
    await expect(notice).toContainText('Scripts are off for this archive');
    await page.screenshot({ path: path.join(SHOTS, 'viewer-scripts-off.png') });
    // Nothing to wait for but the packets that must not come: as long as the probe with scripts on takes to send them.
    await page.waitForTimeout(2500);
    expect(await frame.evaluate(() => document.body.dataset.result ?? null)).toBeNull();
    expect(hostile.stunPackets() - before).toBe(0);
  });

  test('the viewer frame stays on its archive: another port is refused by the browser, another archive by the viewer', async ({ page, harvest, api }) => {
    const a = await harvestHostile(api as never, 'Hostile leave A', false);
    const b = await harvestHostile(api as never, 'Hostile leave B', false);
    const escapesBefore = hostile.escapes.length;
    let frame = await inViewer(page, harvest.url, a.id, '/other.html');
    const ownHost = new URL(frame.url()).host;
    // What a script of the page would do.
    await frame.evaluate((url) => void (location.href = url), `${hostile.escapesUrl}/escaped`);
    await expect(page.getByTestId('viewer-lost')).toBeVisible();
    expect(hostile.escapes.slice(escapesBefore)).toEqual([]);
    await page.getByTestId('viewer-lost-back').click();
    await expect.poll(() => page.frames().find((f) => f !== page.mainFrame())?.url() ?? '').toContain(`${ownHost}/`);
    frame = page.frames().find((f) => f !== page.mainFrame())!;
    await expect(frame.locator('h1')).toHaveText('the other page');
    await frame.evaluate((url) => void (location.href = url), `${b.base}other.html`);
    await expect(page.getByTestId('viewer-refused')).toContainText(new URL(b.base).origin);
    await expect.poll(() => new URL(page.frames().find((f) => f !== page.mainFrame())?.url() ?? 'about:blank').host).toBe(ownHost);
    await expect(page.getByTestId('viewer-url')).toHaveValue(`${hostile.origin}/other.html`);
  });
});
