import { describe, expect, it } from 'vitest';
import { diffListings, listingChanged, touches, type ListedFile, type ListedSkip } from './reconcile';

const listing = (files: ListedFile[], skipped: ListedSkip[] = []) => ({ files, skipped });

describe('diffListings', () => {
  const cases: Array<{
    name: string;
    before: ReturnType<typeof listing>;
    after: ReturnType<typeof listing>;
    want: { changed: string[]; added: string[]; removed: string[]; skippedChanged: boolean };
  }> = [
    {
      name: 'the same stamps: nothing changed',
      before: listing([
        ['a.ts', 10, 1000],
        ['b/c.ts', 20, 2000],
      ]),
      after: listing([
        ['b/c.ts', 20, 2000],
        ['a.ts', 10, 1000],
      ]),
      want: { changed: [], added: [], removed: [], skippedChanged: false },
    },
    {
      name: 'another size, same time: changed',
      before: listing([['a.ts', 10, 1000]]),
      after: listing([['a.ts', 11, 1000]]),
      want: { changed: ['a.ts'], added: [], removed: [], skippedChanged: false },
    },
    {
      name: 'the same size, another time: changed',
      before: listing([['a.ts', 10, 1000]]),
      after: listing([['a.ts', 10, 1001]]),
      want: { changed: ['a.ts'], added: [], removed: [], skippedChanged: false },
    },
    {
      name: 'added and removed, sorted',
      before: listing([
        ['z.ts', 1, 1],
        ['gone.ts', 1, 1],
        ['a/gone.md', 1, 1],
      ]),
      after: listing([
        ['z.ts', 1, 1],
        ['new/b.ts', 1, 1],
        ['new/a.ts', 1, 1],
      ]),
      want: {
        changed: [],
        added: ['new/a.ts', 'new/b.ts'],
        removed: ['a/gone.md', 'gone.ts'],
        skippedChanged: false,
      },
    },
    {
      name: 'a file that became binary leaves the text files and joins the skipped',
      before: listing([['img.dat', 5, 1]]),
      after: listing([], [{ path: 'img.dat', reason: 'binary' }]),
      want: { changed: [], added: [], removed: ['img.dat'], skippedChanged: true },
    },
    {
      name: 'a skipped entry with another reason',
      before: listing([], [{ path: 'big.js', reason: 'tooLarge' }]),
      after: listing([], [{ path: 'big.js', reason: 'binary' }]),
      want: { changed: [], added: [], removed: [], skippedChanged: true },
    },
    {
      name: 'the same skipped entries in another order',
      before: listing(
        [],
        [
          { path: 'node_modules', reason: 'ignored', directory: true },
          { path: 'a.png', reason: 'binary' },
        ],
      ),
      after: listing(
        [],
        [
          { path: 'a.png', reason: 'binary' },
          { path: 'node_modules', reason: 'ignored', directory: true },
        ],
      ),
      want: { changed: [], added: [], removed: [], skippedChanged: false },
    },
    {
      name: 'empty before (a first listing): everything is added',
      before: listing([]),
      after: listing([['a', 1, 1]]),
      want: { changed: [], added: ['a'], removed: [], skippedChanged: false },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const d = diffListings(c.before, c.after);
      expect(d).toEqual(c.want);
      expect(listingChanged(d)).toBe(
        c.want.changed.length + c.want.added.length + c.want.removed.length > 0 || c.want.skippedChanged,
      );
    });
});

describe('touches', () => {
  const diff = { changed: ['a.ts'], added: ['n.ts'], removed: ['gone.ts'], skippedChanged: false };
  const cases: Array<{ paths: string[]; want: boolean }> = [
    { paths: [], want: false },
    { paths: ['b.ts', 'c.ts'], want: false },
    { paths: ['b.ts', 'a.ts'], want: true },
    { paths: ['gone.ts'], want: true },
    // an added file is no path a previous answer read
    { paths: ['n.ts'], want: false },
  ];
  for (const c of cases)
    it(`${JSON.stringify(c.paths)} -> ${c.want}`, () => expect(touches(diff, c.paths)).toBe(c.want));
});
