/**
 * The renderer's Content-Security-Policy, the same in the desktop app and on the web host: its own
 * scripts only, API calls to itself, archives only in frames from `frameSource`, no plugins or forms.
 * Images may also come from the archive origins: that is where each archive serves its thumbnails.
 */
export function appCsp(frameSource: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${frameSource}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frameSource}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
