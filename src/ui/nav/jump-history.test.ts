import { describe, expect, it } from 'vitest';
import { jumpDirection } from './jump-history';

const key = (k: string, mods: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {}) =>
  jumpDirection({
    type: 'keydown',
    key: k,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    ...mods,
  });

describe('jumpDirection', () => {
  it('Alt+← goes back, Alt+→ forward; the caret keys alone or with other modifiers do not', () => {
    expect(key('ArrowLeft', { altKey: true })).toBe('back');
    expect(key('ArrowRight', { altKey: true })).toBe('forward');
    expect(key('ArrowLeft')).toBeNull();
    expect(key('ArrowLeft', { altKey: true, shiftKey: true })).toBeNull();
    expect(key('ArrowLeft', { altKey: true, ctrlKey: true })).toBeNull();
    expect(key('ArrowUp', { altKey: true })).toBeNull();
  });

  it("the mouse's back (3) and forward (4) buttons", () => {
    expect(jumpDirection({ type: 'mouseup', button: 3 })).toBe('back');
    expect(jumpDirection({ type: 'mouseup', button: 4 })).toBe('forward');
    expect(jumpDirection({ type: 'mouseup', button: 0 })).toBeNull();
    expect(jumpDirection({ type: 'mouseup', button: 2 })).toBeNull();
  });
});
