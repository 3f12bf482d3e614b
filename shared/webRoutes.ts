/**
 * URL layout of `harvest serve`, the web host of the engine. Everything lives under a random token so
 * other local users and pages can't drive the engine; the renderer derives the base from its own URL.
 *
 *   GET  /t/<token>/                 the renderer (index.html, app.js, app.css)
 *   POST /t/<token>/api/<command>    body: the command's JSON args; answer: a JSON Reply
 *   GET  /t/<token>/api/events       Server-Sent Events, each `data:` a HostEvent in JSON
 *   GET  /t/<token>/download/<id>    a finished export (a bag folder as a ZIP)
 *   GET  /t/<token>/report/<job id>  the archive's QA report as an HTML file
 *   GET  /t/<token>/log/<job id>     the job's URL log as a text file (what `harvest list` prints)
 *
 * Archived pages are served from a second listener (another origin, see AppInfo.viewerBase) so they
 * cannot call the API.
 */
export const TOKEN_SEGMENT = 't';
export const API_SEGMENT = 'api';
export const EVENTS_PATH = 'events';
export const REPORT_SEGMENT = 'report';
export const LOG_SEGMENT = 'log';

/** The QA report's download, relative to the app's base (web host only). */
export function reportDownloadPath(jobId: string): string {
  return `${REPORT_SEGMENT}/${encodeURIComponent(jobId)}`;
}

/** The job's URL log download, relative to the app's base (web host only). */
export function urlLogDownloadPath(jobId: string): string {
  return `${LOG_SEGMENT}/${encodeURIComponent(jobId)}`;
}

/** `/t/<token>/` from any path under it, or null. */
export function appBaseOf(pathname: string): string | null {
  const m = /^\/t\/([A-Za-z0-9_-]{16,})\//.exec(pathname);
  return m ? `/${TOKEN_SEGMENT}/${m[1]}/` : null;
}

export function commandUrl(appBase: string, command: string): string {
  return `${appBase}${API_SEGMENT}/${command}`;
}

export function eventsUrl(appBase: string): string {
  return `${appBase}${API_SEGMENT}/${EVENTS_PATH}`;
}
