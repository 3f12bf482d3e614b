import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { CrawlStats, UrlRecord } from '../../shared/crawl.js';
import { CLI } from './benchSite.js';

export interface HarvestRun {
  /** Exit code; null when killed (see `signal`). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the harvest process in KiB (Linux /proc VmHWM); null where unavailable. */
  peakRssKiB: number | null;
  timedOut: boolean;
}

/** VmHWM (peak RSS) of a live process, from /proc; null on other systems or once it has exited. */
function peakRssOf(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Runs the harvest CLI without blocking the event loop, so servers living in the test process keep
 * answering (spawnSync would deadlock against them). Kills the child with SIGKILL after timeoutMs.
 */
export function runHarvest(args: string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<HarvestRun> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    let peak: number | null = null;
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const sample = (): void => {
      if (child.pid === undefined) return;
      const v = peakRssOf(child.pid);
      if (v !== null) peak = Math.max(peak ?? 0, v);
    };
    const sampler = setInterval(sample, 20);
    const killer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (e) => {
      clearInterval(sampler);
      clearTimeout(killer);
      reject(e);
    });
    child.once('exit', () => sample());
    child.once('close', (status, signal) => {
      clearInterval(sampler);
      clearTimeout(killer);
      resolve({ status, signal, stdout, stderr, peakRssKiB: peak, timedOut });
    });
  });
}

/** `harvest list <archive> --json`, parsed (the archive must not be open elsewhere). */
export function listRecords(archive: string): UrlRecord[] {
  const out = spawnSync(process.execPath, [CLI, 'list', archive, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 60_000,
  });
  if (out.status !== 0) throw new Error(`harvest list failed (${out.status}): ${out.stderr}`);
  return out.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as UrlRecord);
}

/** `harvest stats <archive> --json`, parsed. */
export function readArchiveStats(archive: string): CrawlStats {
  const out = spawnSync(process.execPath, [CLI, 'stats', archive, '--json'], { encoding: 'utf8', timeout: 60_000 });
  if (out.status !== 0) throw new Error(`harvest stats failed (${out.status}): ${out.stderr}`);
  return JSON.parse(out.stdout) as CrawlStats;
}
