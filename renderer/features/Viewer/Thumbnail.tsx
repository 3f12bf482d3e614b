import { useState } from 'react';
import type { PageRow } from '../../../shared/appViews.js';
import { thumbnailUrl } from './frameLocation.js';

/**
 * A page's thumbnail, from its archive's own origin (the host serves nothing else there but the
 * archive), or a neutral placeholder when it has none or the picture can't be loaded.
 */
export function Thumbnail({ viewerBase, jobId, page, large = false }: { viewerBase: string; jobId: string; page: PageRow; large?: boolean }) {
  const [broken, setBroken] = useState(false);
  const cls = `thumb${large ? ' thumb-large' : ''}`;
  if (!page.thumbnail || broken) {
    return <span className={`${cls} thumb-none`} role="img" aria-label="No thumbnail" data-testid="thumb-placeholder" />;
  }
  return (
    <img
      className={cls}
      src={thumbnailUrl(viewerBase, jobId, page.localPath)}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
      data-testid="thumb"
    />
  );
}
