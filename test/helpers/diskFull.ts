/**
 * A disk that fills up, without root: after `fillDiskAfter(dir, bytes)`, every write to a file under
 * `dir` fails with ENOSPC once `bytes` have gone into such files, as a small filesystem would. It
 * patches the fs functions that write streams use (fs.open, fs.write, fs.writev, fs.close) and the
 * synchronous writes, in this process; files opened elsewhere are untouched. Returns the undo.
 * diskFullShim.ts does the same in a harvest process started with `--import`.
 */
import fs from 'node:fs';
import path from 'node:path';

function enospc(syscall: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`ENOSPC: no space left on device, ${syscall}`);
  e.code = 'ENOSPC';
  e.errno = -28;
  e.syscall = syscall;
  return e;
}

export function fillDiskAfter(dir: string, limit: number): () => void {
  const { open, openSync, close, write, writev, writeSync } = fs;
  const root = path.resolve(dir) + path.sep;
  const watched = new Set<number>();
  let written = 0;
  const under = (p: unknown): boolean => typeof p === 'string' && (path.resolve(p) + path.sep).startsWith(root);
  /** Counts `n` bytes into the watched files; false once the disk is full. */
  const room = (fd: number, n: number): boolean => {
    if (!watched.has(fd)) return true;
    if (written + n > limit) return false;
    written += n;
    return true;
  };
  const lengthOf = (b: unknown): number => (ArrayBuffer.isView(b) ? b.byteLength : typeof b === 'string' ? Buffer.byteLength(b) : 0);
  type Callback = (...args: unknown[]) => void;
  const lastCallback = (args: unknown[]): Callback => args[args.length - 1] as Callback;

  fs.open = ((p: fs.PathLike, ...rest: unknown[]) => {
    const cb = lastCallback(rest);
    const args = [...rest.slice(0, -1), (err: unknown, fd: number) => {
      if (!err && under(p)) watched.add(fd);
      cb(err, fd);
    }];
    return (open as (...a: unknown[]) => void)(p, ...args);
  }) as typeof fs.open;
  fs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
    const fd = (openSync as (...a: unknown[]) => number)(p, ...rest);
    if (under(p)) watched.add(fd);
    return fd;
  }) as typeof fs.openSync;
  fs.close = ((fd: number, ...rest: unknown[]) => {
    watched.delete(fd);
    return (close as (...a: unknown[]) => void)(fd, ...rest);
  }) as typeof fs.close;

  fs.write = ((fd: number, buffer: unknown, ...rest: unknown[]) => {
    if (!room(fd, lengthOf(buffer))) {
      const cb = lastCallback(rest);
      process.nextTick(() => cb(enospc('write')));
      return;
    }
    return (write as (...a: unknown[]) => void)(fd, buffer, ...rest);
  }) as typeof fs.write;
  fs.writev = ((fd: number, buffers: readonly NodeJS.ArrayBufferView[], ...rest: unknown[]) => {
    if (!room(fd, buffers.reduce((n, b) => n + b.byteLength, 0))) {
      const cb = lastCallback(rest);
      process.nextTick(() => cb(enospc('write')));
      return;
    }
    return (writev as (...a: unknown[]) => void)(fd, buffers, ...rest);
  }) as typeof fs.writev;
  fs.writeSync = ((fd: number, buffer: unknown, ...rest: unknown[]) => {
    if (!room(fd, lengthOf(buffer))) throw enospc('write');
    return (writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
  }) as typeof fs.writeSync;
  return () => Object.assign(fs, { open, openSync, close, write, writev, writeSync });
}

/** The environment that starts a harvest process with a disk under `dir` that is full after `bytes`. */
export function diskFullEnv(dir: string, bytes: number): NodeJS.ProcessEnv {
  return {
    NODE_OPTIONS: `--import=${new URL('./diskFullShim.js', import.meta.url).href}`,
    HARVEST_TEST_FULL_DIR: dir,
    HARVEST_TEST_FULL_AFTER: String(bytes),
  };
}
