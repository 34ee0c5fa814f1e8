import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { SessionSummarySchema } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';
import { sessionTree } from '../src/index.js';

const session = (id: string, updatedMs: number, parentId = '') =>
  create(SessionSummarySchema, { id, parentId, updatedAt: timestampFromMs(updatedMs) });

describe('sessionTree()', () => {
  const cases: {
    name: string;
    sessions: ReturnType<typeof session>[];
    rows: string[];
  }[] = [
    { name: 'empty', sessions: [], rows: [] },
    {
      name: 'roots newest first',
      sessions: [session('a', 1), session('b', 3), session('c', 2)],
      rows: ['b', 'c', 'a'],
    },
    {
      name: 'equal times order by id',
      sessions: [session('b', 1), session('a', 1)],
      rows: ['a', 'b'],
    },
    {
      name: 'children under their parent, newest first, whatever the parent age',
      sessions: [
        session('old-root', 1),
        session('new-root', 9),
        session('kid-1', 5, 'old-root'),
        session('kid-2', 7, 'old-root'),
        session('grandkid', 6, 'kid-1'),
      ],
      rows: ['new-root', 'old-root', '  kid-2', '  kid-1', '    grandkid'],
    },
    {
      name: 'an orphan is a root',
      sessions: [session('a', 1), session('orphan', 2, 'gone')],
      rows: ['orphan (orphan)', 'a'],
    },
    {
      name: 'a cycle becomes a root at its newest member',
      sessions: [session('x', 1, 'y'), session('y', 2, 'x'), session('r', 0)],
      rows: ['y', '  x', 'r'],
    },
    { name: 'a self-parent is a root', sessions: [session('s', 1, 's')], rows: ['s'] },
  ];
  it.each(cases)('$name', ({ sessions, rows }) => {
    const shown = sessionTree(sessions).map(
      (row) => `${'  '.repeat(row.depth)}${row.summary.id}${row.orphan ? ' (orphan)' : ''}`,
    );
    expect(shown).toEqual(rows);
  });
});
