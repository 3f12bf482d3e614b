import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The environment variable that names the browser when no path is given. */
export const BROWSER_ENV = 'HARVEST_CHROMIUM';

/** No usable browser: names every path tried, so the user knows where to put one or what to pass. */
export class BrowserNotFoundError extends Error {
  constructor(readonly tried: string[], why: string) {
    super(
      `${why}; tried: ${tried.join(', ')}. Install Chromium, Google Chrome or Microsoft Edge, or give the ` +
        `browser's executable with --browser-path or ${BROWSER_ENV}`,
    );
    this.name = 'BrowserNotFoundError';
  }
}

/** Where Chromium-based browsers are usually installed, in order of preference, per platform. */
export function usualBrowserPaths(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      path.win32.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      path.win32.join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
      path.win32.join(r, 'Chromium', 'Application', 'chrome.exe'),
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/microsoft-edge',
    '/snap/bin/chromium',
  ];
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser to render with: the path given (the job's setting or --browser-path), else
 * HARVEST_CHROMIUM, else the first of the usual places that holds an executable. A path given
 * explicitly is never second-guessed: if it is not an executable file, that is the error.
 */
export function findBrowser(
  given: string | null,
  env: NodeJS.ProcessEnv = process.env,
  usual: string[] = usualBrowserPaths(process.platform, env),
): string {
  const explicit = given ?? (env[BROWSER_ENV]?.trim() || null);
  if (explicit !== null) {
    if (isExecutableFile(explicit)) return explicit;
    const source = given !== null ? 'the browser path given' : BROWSER_ENV;
    throw new BrowserNotFoundError([explicit], `${source} (${explicit}) is not an executable file`);
  }
  const found = usual.find(isExecutableFile);
  if (found === undefined) throw new BrowserNotFoundError(usual, 'no Chromium-based browser found for rendering');
  return found;
}
