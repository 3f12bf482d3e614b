/**
 * Scripts run inside rendered pages. They are source text, evaluated by the browser: the engine is
 * built without DOM types, and nothing here may close over Node values.
 */

/**
 * Waits for two animation frames (what the last step changed is laid out and painted), or 100 ms
 * at most: a document the browser is not rendering runs no frame callbacks at all (one whose script
 * called `location.replace()` in its head stops parsing and is never painted; waiting for its
 * frames made serializing take the whole page limit).
 */
const NEXT_FRAME = `new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(r)); setTimeout(r, 100); })`;

/** Scrolls one screenful down; says whether the bottom was reached. */
export const SCROLL_STEP = `(async () => {
  const el = document.scrollingElement || document.documentElement;
  window.scrollBy(0, window.innerHeight);
  await ${NEXT_FRAME};
  return el.scrollTop + window.innerHeight >= el.scrollHeight - 2;
})()`;

/**
 * Clicks one visible "load more" style button (never a link: that would navigate) and says whether
 * it did. Each button is clicked once.
 */
export const CLICK_LOAD_MORE = `(() => {
  const label = /^\\s*(load|show|view|see)\\s+more\\b|^\\s*more\\s+(results|items|news|stories)\\b/i;
  for (const el of document.querySelectorAll('button, [role="button"], input[type="button"]')) {
    if (el.dataset.harvestClicked || el.disabled) continue;
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
    if (!label.test(text)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    el.dataset.harvestClicked = '1';
    el.click();
    return true;
  }
  return false;
})()`;

/**
 * The DOM serialized for the offline copy. Scripts that would run again (and re-render over what
 * was captured) are removed, with inline event handlers and script preloads; data blocks
 * (JSON, templates) stay. Style sheets built through the CSSOM, whose rules are not in any
 * element's text, are written out. A page that navigated by script gets a meta refresh to where it
 * went, so the copy redirects as the page did. The result starts with a byte order mark: it is
 * UTF-8 whatever the page's original charset, and says so to every later reader. The page is
 * scrolled back to the top in the same step (one round trip fewer per page), ready for the thumbnail.
 */
export function serializeDom(redirectTo: string | null): string {
  return `(async () => {
  window.scrollTo(0, 0);
  const redirectTo = ${JSON.stringify(redirectTo)};
  const live = [...document.querySelectorAll('style')];
  const root = document.documentElement.cloneNode(true);
  const copies = [...root.querySelectorAll('style')];
  live.forEach((el, i) => {
    const copy = copies[i];
    let rules = null;
    try { rules = el.sheet ? [...el.sheet.cssRules].map((r) => r.cssText).join('\\n') : null; } catch {}
    if (copy && rules !== null && rules.length > 0 && el.textContent.trim() === '') copy.textContent = rules;
  });
  const adopted = (document.adoptedStyleSheets || []).map((s) => [...s.cssRules].map((r) => r.cssText).join('\\n')).join('\\n');
  const head = root.querySelector('head') || root.insertBefore(document.createElement('head'), root.firstChild);
  if (adopted) {
    const style = document.createElement('style');
    style.textContent = adopted;
    head.appendChild(style);
  }
  const scriptType = /^(|text\\/javascript|application\\/javascript|module|text\\/ecmascript|application\\/ecmascript|text\\/jscript|text\\/livescript|text\\/x-javascript|application\\/x-javascript)$/i;
  for (const s of root.querySelectorAll('script')) {
    if (scriptType.test((s.getAttribute('type') || '').trim())) s.remove();
  }
  for (const l of root.querySelectorAll('link[rel~="modulepreload"], link[rel~="preload"][as="script"]')) l.remove();
  for (const el of root.querySelectorAll('*')) {
    for (const a of [...el.attributes]) if (/^on/i.test(a.name)) el.removeAttribute(a.name);
  }
  if (redirectTo !== null) {
    const meta = document.createElement('meta');
    meta.setAttribute('http-equiv', 'refresh');
    meta.setAttribute('content', '0; url=' + redirectTo);
    head.appendChild(meta);
  }
  const dt = document.doctype;
  const doctype = dt ? '<!DOCTYPE ' + dt.name + (dt.publicId ? ' PUBLIC "' + dt.publicId + '"' : '') + (dt.systemId ? (dt.publicId ? '' : ' SYSTEM') + ' "' + dt.systemId + '"' : '') + '>\\n' : '';
  const html = '\\uFEFF' + doctype + root.outerHTML;
  await ${NEXT_FRAME};
  return html;
})()`;
}
