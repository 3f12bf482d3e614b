import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface TreeFile {
  /** '/'-separated path relative to the walked folder. */
  rel: string;
  abs: string;
  size: number;
  mtime: Date;
}

/**
 * Every regular file under `root`, depth first in name order (so exports are reproducible), one
 * folder open at a time. Symbolic links are skipped: an archive never makes them, and following
 * one could copy files from outside the archive.
 */
export async function* walkFiles(root: string, rel = ''): AsyncGenerator<TreeFile> {
  const dir = rel === '' ? root : path.join(root, ...rel.split('/'));
  const names: { name: string; isDir: boolean; isFile: boolean }[] = [];
  for await (const d of await opendir(dir)) names.push({ name: d.name, isDir: d.isDirectory(), isFile: d.isFile() });
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const n of names) {
    const childRel = rel === '' ? n.name : `${rel}/${n.name}`;
    if (n.isDir) yield* walkFiles(root, childRel);
    else if (n.isFile) {
      const abs = path.join(dir, n.name);
      const st = await stat(abs);
      yield { rel: childRel, abs, size: st.size, mtime: st.mtime };
    }
  }
}

/** All files of a tree with their total size (paths only are held, never contents). */
export async function listFiles(root: string): Promise<{ files: TreeFile[]; bytes: number }> {
  const files: TreeFile[] = [];
  let bytes = 0;
  for await (const f of walkFiles(root)) {
    files.push(f);
    bytes += f.size;
  }
  return { files, bytes };
}
