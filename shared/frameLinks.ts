/**
 * How the viewer learns that the archivist clicked a link to something the archive does not hold.
 * The mirror leaves such links absolute (to the live web); followed, they would leave the archive,
 * and the app's frame policy blocks them, leaving a browser error page. The archive servers add this
 * script beside the location script: a click on a link to another origin is cancelled and reported
 * to the viewer, which shows its "not in this archive" page instead.
 */
export const MISSING_MESSAGE = 'harvest:missing';

/**
 * A form submitted in an archived page: the site that would answer it is not in the archive. The
 * archive servers' sandbox (no allow-forms) stops a submission before its submit event, silently,
 * so the attempt is reported (a click on a submit button, Enter in a form's field) and the viewer
 * says that forms don't submit there, instead of nothing happening.
 */
export const FORM_MESSAGE = 'harvest:form';

export const LINK_SCRIPT =
  `document.addEventListener('click',function(e){` +
  `var a=e.target&&e.target.closest?e.target.closest('a[href],area[href]'):null;if(!a)return;` +
  `var u;try{u=new URL(a.href,location.href)}catch(_){return}` +
  `if(u.origin===location.origin||(u.protocol!=='http:'&&u.protocol!=='https:'))return;` +
  `e.preventDefault();parent.postMessage({type:'${MISSING_MESSAGE}',href:u.href},'*')},true);` +
  `(function(){function f(){parent.postMessage({type:'${FORM_MESSAGE}'},'*')}` +
  `document.addEventListener('click',function(e){var b=e.target&&e.target.closest?e.target.closest('button,input'):null;` +
  `if(b&&b.form&&(b.type==='submit'||b.type==='image'))f()},true);` +
  `document.addEventListener('keydown',function(e){var t=e.target;if(e.key==='Enter'&&t&&t.form&&t.tagName==='INPUT')f()},true)})()`;

/** The original URL a frame reports a click on, if the message is such a report. */
export function missingUrlFromMessage(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const { type, href } = data as { type?: unknown; href?: unknown };
  if (type !== MISSING_MESSAGE || typeof href !== 'string' || href.length > 8000) return null;
  return /^https?:\/\//i.test(href) ? href : null;
}

/** Whether a frame's message reports a form it cancelled. */
export function isFormMessage(data: unknown): boolean {
  return !!data && typeof data === 'object' && (data as { type?: unknown }).type === FORM_MESSAGE;
}
