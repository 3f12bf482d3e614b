/**
 * Where the viewer's frame of each job is, as the main process sees it navigate: the frames directly
 * under the app window's top frame that show `harvest-archive://<job>/...`. Frames an archived page
 * makes inside itself are not the viewer's, and same-document changes (history.pushState) are not
 * navigations, so a page can't make the viewer show another address.
 */
export class ViewerFrames {
  private readonly paths = new Map<string, string>();

  constructor(private readonly scheme: string) {}

  /** A cross-document navigation of a frame whose parent is the app window's top frame. */
  navigated(url: string): void {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    if (u.protocol !== `${this.scheme}:` || !u.host) return;
    let localPath: string;
    try {
      localPath = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'index.html';
    } catch {
      return;
    }
    this.paths.set(u.host.toLowerCase(), localPath.endsWith('/') ? `${localPath}index.html` : localPath);
  }

  locate(jobId: string): string | null {
    return this.paths.get(jobId.toLowerCase()) ?? null;
  }
}
