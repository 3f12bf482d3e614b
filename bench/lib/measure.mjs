// Running one crawler under /usr/bin/time -v and a cap, and measuring what it left behind.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** `/usr/bin/time -v` output: wall s, peak RSS KiB, CPU s, exit status or signal. */
export function parseTimeV(txt) {
  const r = {};
  const w = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(txt);
  if (w) r.wallSeconds = w[1].split(':').map(Number).reduce((s, x) => s * 60 + x, 0);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(txt);
  if (m) r.maxRssKiB = Number(m[1]);
  const u = /User time \(seconds\): ([\d.]+)/.exec(txt);
  const s = /System time \(seconds\): ([\d.]+)/.exec(txt);
  if (u && s) r.cpuSeconds = Number(u[1]) + Number(s[1]);
  const sig = /Command terminated by signal (\d+)/.exec(txt);
  if (sig) r.signal = Number(sig[1]);
  return r;
}

/** Every live process's parent, from /proc. */
function parents() {
  const out = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      out.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export function descendantsOf(root) {
  const pp = parents();
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of pp) if (ppid === found[i]) found.push(pid);
  return found;
}

/** VmHWM and VmRSS (KiB) of one process; null once it has gone. */
export function memoryOf(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return { hwmKiB: Number(/^VmHWM:\s+(\d+)/m.exec(s)?.[1] ?? 0), rssKiB: Number(/^VmRSS:\s+(\d+)/m.exec(s)?.[1] ?? 0) };
  } catch {
    return null;
  }
}

/**
 * Peak VmHWM of any one process of a tree, sampled: the fallback for when `timeout` has to SIGKILL a
 * crawler, which kills `timeout` too and loses the rusage `time -v` would have printed. Also the
 * peak of the tree's summed VmRSS below `time` and `timeout` (the crawler and everything it started,
 * a browser's processes included); pages shared between processes count once per process.
 */
export function watchPeakRss(rootPid, everyMs = 500) {
  let peakKiB = 0;
  let treePeakKiB = 0;
  const sample = () => {
    let sumKiB = 0;
    // Breadth-first: [time, timeout, crawler, ...what the crawler started].
    for (const [i, pid] of descendantsOf(rootPid).entries()) {
      const m = memoryOf(pid);
      if (m && m.hwmKiB > peakKiB) peakKiB = m.hwmKiB;
      if (m && i >= 2) sumKiB += m.rssKiB;
    }
    treePeakKiB = Math.max(treePeakKiB, sumKiB);
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return { stop: () => (clearInterval(timer), { peakKiB, treePeakKiB }) };
}

/**
 * Runs `cmd` under `/usr/bin/time -v timeout -k 10 <cap>`, in `dir`; resolves with wall seconds
 * (measured here), exit code, whether the cap stopped it, peak RSS and CPU.
 */
export function runMeasured(cmd, { dir, capSeconds, env, sampleMs }) {
  fs.mkdirSync(dir, { recursive: true });
  const timeFile = path.join(dir, 'time.txt');
  const log = fs.openSync(path.join(dir, 'output.txt'), 'w');
  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', '-o', timeFile, 'timeout', '-k', '10', String(capSeconds), ...cmd], {
    stdio: ['ignore', log, log],
    env: { ...process.env, ...env },
  });
  const watch = watchPeakRss(child.pid, sampleMs);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      const wallSeconds = (performance.now() - started) / 1000;
      const polled = watch.stop();
      fs.closeSync(log);
      const t = fs.existsSync(timeFile) ? parseTimeV(fs.readFileSync(timeFile, 'utf8')) : {};
      // time -v reports 124 from timeout when the cap's TERM ended the run, 137 when KILL was needed.
      const exit = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
      const capped = exit === 124 || exit === 137 || t.signal === 9;
      resolve({
        command: cmd.join(' '),
        exit,
        capped,
        wallSeconds: round(wallSeconds, 2),
        maxRssMiB: round(Math.max(t.signal === 9 ? 0 : (t.maxRssKiB ?? 0), polled.peakKiB) / 1024, 1),
        treeRssMiB: round(polled.treePeakKiB / 1024, 1),
        cpuSeconds: t.cpuSeconds == null ? null : round(t.cpuSeconds, 1),
        loadavgBefore: loadBefore,
        loadavgAfter: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      });
    });
  });
}

export function duBytes(dir) {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.split('\t')[0]) : null;
}

/** Files and folders under `dir` (a crawler's output: each one an inode the kernel made). */
export function entriesIn(dir) {
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : null;
}

/**
 * CPU (user + system, ms) this process spends creating one empty file under `dir`, over `n` of them
 * in a folder of their own: what the file system charges a crawler for each file of its copy,
 * whichever crawler it is. The files stay: the caller deletes them with the crawlers' copies, when
 * no crawler runs (see realSites.mjs).
 */
export function fileCreationMs(dir, n = 2000) {
  const d = fs.mkdtempSync(path.join(dir, 'creates-'));
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) fs.closeSync(fs.openSync(path.join(d, `f${i}`), 'wx'));
  const used = process.cpuUsage(before);
  return { ms: round((used.user + used.system) / 1000 / n, 3), dir: d };
}

/** A new file costs at most this (ms of CPU) on a file system with nothing freed lately (0.03-0.06 here). */
const SETTLED_CREATE_MS = 0.1;
/**
 * How long ext4 without a journal keeps a freed inode from reuse: 60 s, 300 more while its inode
 * table block is dirty (fs/ext4/ialloc.c, RECENTCY_MIN and RECENTCY_DIRTY). Until then each new file
 * in that group skips it, one cached block lookup each: a crawl right after another's copy was
 * deleted paid 2-3 times the system time.
 */
const RECENT_DELETE_S = 360;

/**
 * fileCreationMs once files cost what they do with nothing deleted lately, or after RECENT_DELETE_S:
 * files deleted before the bench (an earlier run's copies, other jobs') would otherwise be charged
 * to the crawlers run first. Returns the cost, the seconds waited, and the probes' folders.
 */
export async function settledFileCreation(dir, log) {
  const started = Date.now();
  const dirs = [];
  for (;;) {
    const { ms, dir: d } = fileCreationMs(dir);
    dirs.push(d);
    const waited = Math.round((Date.now() - started) / 1000);
    if (ms <= SETTLED_CREATE_MS || waited >= RECENT_DELETE_S) return { ms, waitedSeconds: waited, dirs };
    if (dirs.length === 1) log(`a new file costs ${ms} ms of CPU here (files were deleted lately): waiting for the file system to settle`);
    await sleep(10_000);
  }
}

/** linkcheck.mjs on a saved copy: coverage and links escaping or broken. */
export function linkcheck(benchDir, mirror, manifest, jsonOut) {
  const r = spawnSync(process.execPath, [path.join(benchDir, 'linkcheck.mjs'), '--mirror', mirror, '--manifest', manifest, '--json', jsonOut, '--quiet'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (!fs.existsSync(jsonOut)) return { error: (r.stderr || r.stdout || `exit ${r.status}`).trim().slice(0, 300) };
  const lc = JSON.parse(fs.readFileSync(jsonOut, 'utf8'));
  return { coverage: lc.coverage, links: lc.links };
}

export function round(x, digits = 0) {
  if (x == null || Number.isNaN(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The middle of the figures given (the lower middle of an even count); nulls left out, null if none. */
export function median(xs) {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.floor((s.length - 1) / 2)];
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
