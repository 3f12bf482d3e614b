import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Project root, whether this runs from the sources or from dist/. */
export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
/** The project's benchmark harness (sitegen.mjs, serve.mjs, linkcheck.mjs), carried in bench/harness. */
export const BENCH_DIR = process.env.HARVEST_BENCH_DIR ?? path.join(PROJECT_ROOT, 'bench', 'harness');
export const CLI = path.join(PROJECT_ROOT, 'dist', 'electron', 'bundle', 'harvest.js');

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${start}`);
    dir = up;
  }
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Manifest {
  origin: string;
  pages: { id: string; url: string; urls?: string[]; file: string; depth: number; charset?: string }[];
  assets: { id: string; url: string; urls?: string[] }[];
  traps: { name: string; entry: string; pattern: string }[];
  robotsDisallowed: { pages: { id: string; url: string }[] };
}

export interface BenchSite {
  origin: string;
  dir: string;
  manifest: Manifest;
  stats(detail?: boolean): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Generates a sitegen.mjs site for a free loopback port and serves it with serve.mjs. */
export async function startBenchSite(opts: {
  pages: number;
  workDir: string;
  latencyMs?: number;
  compress?: boolean;
  /** Per-file ETag and Last-Modified, 304s to conditional requests (serve.mjs --validators). */
  validators?: boolean;
  /** Files re-read on every request, so a test can edit the site between crawls (serve.mjs --live). */
  live?: boolean;
}): Promise<BenchSite> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dir = path.join(opts.workDir, `site-${opts.pages}-${port}`);
  const gen = spawnSync(
    process.execPath,
    [path.join(BENCH_DIR, 'sitegen.mjs'), '--pages', String(opts.pages), '--out', dir, '--origin', origin, '--force'],
    { encoding: 'utf8' },
  );
  if (gen.status !== 0) throw new Error(`sitegen failed: ${gen.stderr}`);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const args = [path.join(BENCH_DIR, 'serve.mjs'), '--dir', dir, '--port', String(port)];
  if (opts.latencyMs) args.push('--latency-ms', String(opts.latencyMs));
  if (opts.compress) args.push('--compress');
  if (opts.validators) args.push('--validators');
  if (opts.live) args.push('--live');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await waitForLine(child, 'serve: http://');
  return {
    origin,
    dir,
    manifest,
    async stats(detail = false) {
      const res = await fetch(`${origin}/__stats${detail ? '?detail=1' : ''}`);
      return (await res.json()) as Record<string, unknown>;
    },
    stop: () => stopChild(child),
  };
}

function waitForLine(child: ChildProcess, prefix: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      if (buf.includes(prefix)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LinkcheckResult {
  files: number;
  coverage: { pages: number; pagesTotal: number; assets: number; assetsTotal: number; missingExamples: string[] };
  dynamicOnDisk: Record<string, number>;
  privatePagesOnDisk: number;
  links: {
    refs: number;
    local: number;
    escapedArchivable: number;
    brokenArchivable: number;
    fidelityPct: number;
    examples: { escaped: string[]; broken: string[] };
  };
}

/** Runs the shared offline-fidelity checker on a mirror. */
export function linkcheck(mirror: string, manifestFile: string, jsonOut: string): LinkcheckResult {
  const r = spawnSync(
    process.execPath,
    [path.join(BENCH_DIR, 'linkcheck.mjs'), '--mirror', mirror, '--manifest', manifestFile, '--json', jsonOut, '--quiet'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`linkcheck failed: ${r.stderr}`);
  return JSON.parse(readFileSync(jsonOut, 'utf8')) as LinkcheckResult;
}
