import { spawnSync } from 'node:child_process';

/** Every process descended from `pid` (a crawl's or a worker's browser and its helpers). */
export function descendantsOf(pid: number): number[] {
  const rows = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    for (const [child, ppid] of rows) if (ppid === parent) (found.push(child), stack.push(child));
  }
  return found;
}

/** Those of `pids` still running. */
export function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}
