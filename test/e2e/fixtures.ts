import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { CommandName, Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import { commandUrl } from '../../shared/webRoutes.js';
import { CLI, startBenchSite, stopChild, type BenchSite } from '../helpers/benchSite.js';

/** A running `harvest serve` with its own data folder. */
export interface HarvestServe {
  /** The app's URL, token included. */
  url: string;
  dataDir: string;
}

export interface Fixtures {
  /** Every request the page tried to send off loopback, 127.0.0.1 and the archives' `*.localhost` (each was aborted). Tests assert it stays empty. */
  offsiteRequests: string[];
  /** Calls a command through the real HTTP API from the page's origin, as the renderer does. */
  api: <T = unknown>(command: CommandName, args?: Record<string, unknown>) => Promise<Reply<T>>;
}

export interface WorkerFixtures {
  /** The small sitegen site served by bench/harness/serve.mjs on 127.0.0.1. */
  site: BenchSite;
  harvest: HarvestServe;
}

const SITE_PAGES = 150;

/** Runs `harvest serve` on a data folder of its own for as long as the worker lives. */
async function serveHarvest(use: (h: HarvestServe) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'harvest-e2e-data-'));
  const child = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await appUrlFrom(child);
  await use({ url, dataDir });
  await stopChild(child);
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * A `harvest` fixture of its own. Test files run one after another in one worker and so share one
 * host; a file whose jobs must stay out of the others' way (the first file expects an empty jobs
 * list) overrides `harvest` with this. Playwright keys workers by the fixture functions, so a new
 * function gives the file a worker, and a host, of its own.
 */
export function ownHarvest(): [({}, use: (h: HarvestServe) => Promise<void>) => Promise<void>, { scope: 'worker' }] {
  return [async ({}, use) => serveHarvest(use), { scope: 'worker' }];
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  site: [
    async ({}, use) => {
      const work = mkdtempSync(path.join(tmpdir(), 'harvest-e2e-site-'));
      const site = await startBenchSite({ pages: SITE_PAGES, workDir: work, latencyMs: 5 });
      await use(site);
      await site.stop();
      rmSync(work, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],

  harvest: [async ({}, use) => serveHarvest(use), { scope: 'worker' }],

  offsiteRequests: async ({ context }, use) => {
    const offsite: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      const { hostname } = new URL(url);
      if (hostname !== '127.0.0.1' && !hostname.endsWith('.localhost')) {
        offsite.push(url);
        return route.abort('blockedbyclient');
      }
      return route.continue();
    });
    await use(offsite);
  },

  api: async ({ page, harvest }, use) => {
    await use((command, args = {}) => callApi(page, harvest.url, command, args));
  },
});

export { expect };

type Api = Fixtures['api'];

/**
 * Creates a job from `job` (the job input the host takes), starts it and waits until it has
 * finished: the first steps of every test that needs an archive. Returns the job as created.
 */
export async function harvestJob(api: Api, job: Record<string, unknown>, timeoutMs = 60_000): Promise<JobSummary> {
  const created = await api<JobSummary>('jobs.create', { job });
  if (!created.ok) throw new Error(`jobs.create: ${created.error.message}`);
  const { id } = created.value;
  const started = await api('jobs.start', { id });
  if (!started.ok) throw new Error(`jobs.start: ${started.error.message}`);
  await expect
    .poll(
      async () => {
        const r = await api<JobSummary[]>('jobs.list');
        return r.ok ? r.value.find((j) => j.id === id)?.status : null;
      },
      { timeout: timeoutMs, message: `job ${id} never finished` },
    )
    .toBe('finished');
  return created.value;
}

async function callApi<T>(page: Page, appUrl: string, command: CommandName, args: Record<string, unknown>): Promise<Reply<T>> {
  if (!page.url().startsWith(appUrl)) await page.goto(appUrl);
  const url = commandUrl(new URL(appUrl).pathname, command);
  return page.evaluate(
    async ({ url, args }) => {
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
      return (await res.json()) as Reply<T>;
    },
    { url, args },
  );
}

function appUrlFrom(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/t\/[A-Za-z0-9_-]+\/)/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`harvest serve exited early with ${code}: ${out}`)));
  });
}
