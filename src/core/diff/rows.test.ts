import { describe, expect, it } from 'vitest';
import { buildRows, type DiffRow } from './rows';
import { diffTexts } from './text-diff';

const file = (n: number, edit: (lines: string[]) => void = () => {}) => {
  const lines = Array.from({ length: n }, (_, i) => `line ${i + 1}`);
  edit(lines);
  return lines.join('\n') + '\n';
};

/** A compact picture of the rows: gaps as "~count@header", lines as "left|right" with -, +, = marks. */
function picture(rows: DiffRow[]): string[] {
  return rows.map((r) => {
    if (r.kind === 'gap') return `~${r.count}${r.header ? ' ' + r.header : ''}`;
    const side = (s: typeof r.left, mark: string) =>
      s ? `${s.kind === 'context' ? '=' : mark}${s.line + 1}` : '.';
    return `${side(r.left, '-')}|${side(r.right, '+')}`;
  });
}

describe('diff rows', () => {
  const before = file(30);
  const after = file(30, (l) => {
    l[14] = 'line 15 changed';
    l.splice(20, 0, 'new line');
  });
  const d = diffTexts(before, after);

  it('split: changes with 3 lines of context, the rest collapsed behind hunk headers', () => {
    const { rows, blockStarts } = buildRows(d.ops, d.words, 'split');
    expect(picture(rows)).toEqual([
      '~11 @@ -12,12 +12,13 @@',
      '=12|=12',
      '=13|=13',
      '=14|=14',
      '-15|+15',
      '=16|=16',
      '=17|=17',
      '=18|=18',
      '=19|=19',
      '=20|=20',
      '.|+21',
      '=21|=22',
      '=22|=23',
      '=23|=24',
      '~7',
    ]);
    expect(blockStarts).toEqual([4, 10]);
  });

  it('inline: deletions before insertions; a gap names the next hunk', () => {
    // 30 common lines, then 10 lines replaced by 40 others
    const dd = diffTexts(
      before + file(10).replace(/line/g, 'old'),
      before + file(40).replace(/line/g, 'new'),
    );
    const { rows } = buildRows(dd.ops, dd.words, 'inline');
    const gaps = rows.filter((r) => r.kind === 'gap');
    expect(gaps).toEqual([{ kind: 'gap', id: 0, a: 0, b: 0, count: 27, header: '@@ -28,13 +28,43 @@' }]);
    const changed = picture(rows).filter((p) => p.includes('-') || p.includes('+'));
    // every deletion comes before the change's first insertion
    const firstIns = changed.findIndex((p) => p.startsWith('.'));
    expect(changed.slice(firstIns).every((p) => p.startsWith('.'))).toBe(true);
  });

  it('a header counts the hunk: @@ -start,count +start,count @@ (count 1 written bare, 0 at the line before)', () => {
    const a = file(20);
    const onlyDelete = diffTexts(
      a,
      file(20, (l) => l.splice(10, 1)),
    );
    expect(buildRows(onlyDelete.ops, onlyDelete.words, 'split').rows[0]).toMatchObject({
      kind: 'gap',
      header: '@@ -8,7 +8,6 @@',
    });
    const oneLine = diffTexts(
      file(12),
      file(12, (l) => (l[9] = 'x')),
    );
    expect(buildRows(oneLine.ops, oneLine.words, 'split').rows[0]).toMatchObject({
      kind: 'gap',
      count: 6,
      header: '@@ -7,6 +7,6 @@',
    });
  });

  it('an expanded gap shows its lines; short unchanged runs are never collapsed', () => {
    const { rows } = buildRows(d.ops, d.words, 'split', { expanded: new Set([0]) });
    expect(picture(rows).slice(0, 3)).toEqual(['=1|=1', '=2|=2', '=3|=3']);
    expect(rows.filter((r) => r.kind === 'gap')).toHaveLength(1);
    // between the two changes: 5 unchanged lines, 3 + 3 would be kept: nothing to hide
    expect(picture(buildRows(d.ops, d.words, 'split').rows).filter((p) => p.startsWith('~'))).toHaveLength(2);
  });

  it('identical files: every line, no gap, no change', () => {
    const same = diffTexts(before, before);
    const { rows, blockStarts } = buildRows(same.ops, same.words, 'split');
    expect(rows).toHaveLength(30);
    expect(blockStarts).toEqual([]);
  });

  it('an added file is all insertions; word ranges ride on paired lines', () => {
    const added = diffTexts('', 'a\nb\n');
    expect(picture(buildRows(added.ops, added.words, 'inline').rows)).toEqual(['.|+1', '.|+2']);
    const w = diffTexts('x\nlet total = 0;\ny\n', 'x\nlet sum = 0;\ny\n');
    const row = buildRows(w.ops, w.words, 'split').rows.find((r) => r.kind === 'line' && r.block === 0);
    expect(row).toMatchObject({ left: { words: [[4, 9]] }, right: { words: [[4, 7]] } });
  });
});
