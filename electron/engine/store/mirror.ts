import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from '../url/localPath.js';

/** The browsable copy: files under `<archive>/mirror/`, each written atomically. */
export class Mirror {
  private readonly knownDirs = new Set<string>();
  private tmpCounter = 0;

  constructor(readonly root: string) {}

  absolutePath(localPath: string): string {
    return resolveInside(this.root, localPath);
  }

  /** Writes via a temporary sibling and a rename, so a crash never leaves a half file under the final name. */
  async write(localPath: string, data: Buffer | string): Promise<void> {
    const abs = this.absolutePath(localPath);
    const dir = path.dirname(abs);
    if (!this.knownDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.knownDirs.add(dir);
    }
    const tmp = path.join(dir, `.${path.basename(abs)}.${process.pid}.${this.tmpCounter++}.tmp`);
    try {
      await writeFile(tmp, data);
      await rename(tmp, abs);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }
}
