import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { cleanup, render, screen } from '@testing-library/react';
import { TableHead } from '../../renderer/features/Table/TableHead.js';

describe('TableHead', () => {
  afterEach(cleanup);

  it('gives every heading the column scope, figures right-aligned, a hint as a title and a hidden name to screen readers only', () => {
    render(
      <table>
        <TableHead columns={[{ label: 'Page' }, { label: 'Size', num: true, title: 'Bytes on disk' }, { label: 'Actions', hidden: true }]} />
      </table>,
    );
    const heads = screen.getAllByRole('columnheader');
    assert.deepEqual(
      heads.map((h) => [h.textContent, h.getAttribute('scope'), h.className, h.getAttribute('title')]),
      [
        ['Page', 'col', '', null],
        ['Size', 'col', 'num', 'Bytes on disk'],
        ['Actions', 'col', '', null],
      ],
    );
    assert.equal(heads[2]!.querySelector('.sr-only')?.textContent, 'Actions', 'the actions column is named for screen readers alone');
  });
});
