/**
 * Opens one page of a WACZ at one time in ReplayWeb.page (the `replaywebpage` package's own files,
 * served by the test helper's viewer server) and checks what it shows: the title and words the
 * page's file has for that capture, none of the words it must not have (another capture's), and
 * every image loaded.
 */
import yauzl from 'yauzl';
import { replayFrame } from '../../dist/test/helpers/replayViewer.js';

const normal = (s) => s.replace(/\s+/g, ' ').trim();

/** The text of one entry of a zip (pages/pages.jsonl of a WACZ). */
export async function zipEntryText(file, name) {
  const zip = await yauzl.openPromise(file);
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== name) continue;
      const chunks = [];
      for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c);
      return Buffer.concat(chunks).toString('utf8');
    }
  } finally {
    zip.close();
  }
  throw new Error(`${file} has no ${name}`);
}

/** The page lines of a WACZ's pages.jsonl, header left out. */
export async function pagesOfWacz(file) {
  return (await zipEntryText(file, 'pages/pages.jsonl'))
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => JSON.parse(l));
}

export const fourteen = (iso) => iso.replace(/[-:T]/g, '').slice(0, 14);

/**
 * Replays `url` at `ts` (14 digits) and returns the problems seen (empty when it passed):
 * `expect` = { title, words (or null), absent: [words that must not show] }.
 */
export async function checkReplay(browser, origin, url, ts, expect) {
  const context = await browser.newContext();
  const problems = [];
  try {
    const frame = await replayFrame(context, origin, url, { ts, timeoutMs: 90_000 });
    const title = normal(await frame.title());
    if (title !== expect.title) problems.push(`title ${JSON.stringify(title)}, expected ${JSON.stringify(expect.title)}`);
    const text = normal(await frame.evaluate(() => document.body?.textContent ?? ''));
    if (expect.words && !text.includes(expect.words)) problems.push(`its words ${JSON.stringify(expect.words.slice(0, 60))} not shown`);
    for (const w of expect.absent ?? []) if (text.includes(w)) problems.push(`shows ${JSON.stringify(w.slice(0, 60))} of another capture`);
    // Lazy images load once scrolled to.
    await frame.evaluate(async () => {
      for (const img of Array.from(document.images)) {
        img.scrollIntoView();
        await new Promise((r) => setTimeout(r, 10));
      }
    });
    const settled = await frame
      .waitForFunction(() => Array.from(document.images).every((i) => i.complete), undefined, { timeout: 30_000 })
      .then(() => true, () => false);
    const images = await frame.evaluate(() => Array.from(document.images).map((i) => ({ src: i.currentSrc || i.src, complete: i.complete, width: i.naturalWidth })));
    const broken = images.filter((i) => i.src !== '' && (!i.complete || i.width === 0)).map((i) => i.src);
    if (!settled || broken.length > 0) problems.push(`images not loaded: ${[...new Set(broken)].slice(0, 5).join(' ')}`);
    return { problems, images: images.length };
  } catch (e) {
    problems.push(e.message.split('\n')[0].slice(0, 200));
    return { problems, images: 0 };
  } finally {
    await context.close();
  }
}

/** `n` items of `list` spread evenly over it (all of them when it is shorter). */
export function spread(list, n) {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}
