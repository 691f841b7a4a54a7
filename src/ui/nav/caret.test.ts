import { describe, expect, it } from 'vitest';
import { clampCaret, moveCaret, parseLineColumn, type Caret, type CaretKey } from './caret';

const LINES = [
  'export function formatMoney(cents: number) {', // 1
  '  return cents;', // 2
  '', // 3
  '    const 😀x = 1;', // 4 (an emoji: two UTF-16 units)
  '}', // 5
];

const move = (from: Caret, key: string | CaretKey, goal: number | null = null, page = 10) =>
  moveCaret(LINES, from, goal, typeof key === 'string' ? { key } : key, page);

describe('moveCaret', () => {
  it('moves by characters, across line ends, and never into a surrogate pair', () => {
    expect(move({ line: 1, col: 0 }, 'ArrowRight')?.caret).toEqual({ line: 1, col: 1 });
    expect(move({ line: 1, col: 44 }, 'ArrowRight')?.caret).toEqual({ line: 2, col: 0 });
    expect(move({ line: 2, col: 0 }, 'ArrowLeft')?.caret).toEqual({ line: 1, col: 44 });
    expect(move({ line: 1, col: 0 }, 'ArrowLeft')?.caret).toEqual({ line: 1, col: 0 });
    expect(move({ line: 5, col: 1 }, 'ArrowRight')?.caret).toEqual({ line: 5, col: 1 });
    // 😀 is at 10-11: right from 10 lands after it, left from 12 before it
    expect(move({ line: 4, col: 10 }, 'ArrowRight')?.caret).toEqual({ line: 4, col: 12 });
    expect(move({ line: 4, col: 12 }, 'ArrowLeft')?.caret).toEqual({ line: 4, col: 10 });
    expect(clampCaret(LINES, { line: 4, col: 11 })).toEqual({ line: 4, col: 10 });
  });

  it('moves by words with Ctrl', () => {
    expect(move({ line: 1, col: 0 }, { key: 'ArrowRight', ctrlKey: true })?.caret.col).toBe(6);
    expect(move({ line: 1, col: 6 }, { key: 'ArrowRight', ctrlKey: true })?.caret.col).toBe(15);
    expect(move({ line: 1, col: 20 }, { key: 'ArrowLeft', ctrlKey: true })?.caret.col).toBe(16);
    expect(move({ line: 1, col: 16 }, { key: 'ArrowLeft', ctrlKey: true })?.caret.col).toBe(7);
  });

  it('keeps the wanted column over a shorter line when moving up and down', () => {
    const down = move({ line: 1, col: 20 }, 'ArrowDown')!;
    expect(down).toEqual({ caret: { line: 2, col: 15 }, goal: 20 });
    const blank = move(down.caret, 'ArrowDown', down.goal)!;
    expect(blank).toEqual({ caret: { line: 3, col: 0 }, goal: 20 });
    expect(move(blank.caret, 'ArrowDown', blank.goal)?.caret).toEqual({ line: 4, col: 18 }); // its end
    // past the first or the last line: to its start or its end
    expect(move({ line: 1, col: 9 }, 'ArrowUp')?.caret).toEqual({ line: 1, col: 0 });
    expect(move({ line: 5, col: 0 }, 'ArrowDown')?.caret).toEqual({ line: 5, col: 1 });
    // a sideways move forgets the goal
    expect(move({ line: 2, col: 15 }, 'ArrowLeft', 20)?.goal).toBe(14);
  });

  it('pages by the rows on screen, less one, and stops at the ends', () => {
    const long = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    expect(moveCaret(long, { line: 1, col: 3 }, null, { key: 'PageDown' }, 30)?.caret).toEqual({
      line: 30,
      col: 3,
    });
    expect(moveCaret(long, { line: 90, col: 3 }, null, { key: 'PageDown' }, 30)?.caret.line).toBe(100);
    expect(moveCaret(long, { line: 20, col: 3 }, null, { key: 'PageUp' }, 30)?.caret.line).toBe(1);
  });

  it('Home goes to the first non-blank, then to the start; End and Ctrl+Home/End', () => {
    expect(move({ line: 2, col: 9 }, 'Home')?.caret).toEqual({ line: 2, col: 2 });
    expect(move({ line: 2, col: 2 }, 'Home')?.caret).toEqual({ line: 2, col: 0 });
    expect(move({ line: 2, col: 0 }, 'End')?.caret).toEqual({ line: 2, col: 15 });
    expect(move({ line: 3, col: 0 }, { key: 'Home', ctrlKey: true })?.caret).toEqual({ line: 1, col: 0 });
    expect(move({ line: 1, col: 0 }, { key: 'End', ctrlKey: true })?.caret).toEqual({ line: 5, col: 1 });
  });

  it('leaves other keys, and Shift, Alt or Meta chords, to others', () => {
    expect(move({ line: 1, col: 0 }, 'a')).toBeNull();
    expect(move({ line: 1, col: 0 }, { key: 'ArrowLeft', altKey: true })).toBeNull(); // Back
    expect(move({ line: 1, col: 0 }, { key: 'ArrowRight', shiftKey: true })).toBeNull();
    expect(moveCaret([], { line: 1, col: 0 }, null, { key: 'ArrowDown' }, 10)).toBeNull();
  });
});

describe('parseLineColumn', () => {
  it('reads a line, or a line and a column', () => {
    expect(parseLineColumn('12')).toEqual({ line: 12, col: 0 });
    expect(parseLineColumn(' 12:5 ')).toEqual({ line: 12, col: 5 });
    expect(parseLineColumn('12,5')).toEqual({ line: 12, col: 5 });
    expect(parseLineColumn('0')).toBeNull();
    expect(parseLineColumn('12:')).toBeNull();
    expect(parseLineColumn('x')).toBeNull();
  });
});
