import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Bytes of every file under a folder (symlinks not followed); 0 when it doesn't exist. */
export function diskUsage(dir: string): number {
  let total = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) total += lstatSync(p).size;
    }
  }
  return total;
}
