import { useState } from 'react';
import type { ArchiveSummary } from '../../../shared/appViews.js';
import { Confirm } from '../Confirm/index.js';

interface Props {
  archive: ArchiveSummary;
  onCancel(): void;
  onConfirm(deleteArchive: boolean): void;
}

/** Deleting a job asks what becomes of its archive folder; keeping it is the default. */
export function DeleteArchiveDialog({ archive, onCancel, onConfirm }: Props) {
  const [deleteArchive, setDeleteArchive] = useState(false);
  return (
    <Confirm
      title={`Delete “${archive.name}”?`}
      confirmLabel={deleteArchive ? 'Delete job and archive' : 'Delete job, keep folder'}
      onCancel={onCancel}
      onConfirm={() => onConfirm(deleteArchive)}
      testId="archive-delete-confirm"
    >
      <p>
        Its archive folder is <code>{archive.archiveDir}</code>.
      </p>
      <fieldset className="choice">
        <label className="row">
          <input type="radio" name="delete-archive" checked={!deleteArchive} onChange={() => setDeleteArchive(false)} data-testid="archive-delete-keep" />
          <span>
            Keep the folder on disk. <span className="muted">Open archive… adds it to the library again.</span>
          </span>
        </label>
        <label className="row">
          <input type="radio" name="delete-archive" checked={deleteArchive} onChange={() => setDeleteArchive(true)} data-testid="archive-delete-files" />
          <span>
            Delete the archive: its catalogue, offline copy and WARC files. <span className="muted">Anything else in the folder is left where it is. This cannot be undone.</span>
          </span>
        </label>
      </fieldset>
    </Confirm>
  );
}
