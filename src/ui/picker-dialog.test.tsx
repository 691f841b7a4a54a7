/** PickerDialog, the dialog quick open and go to symbol share: its roles, ids and test ids as the e2e tests find them. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Highlighted, PickerDialog } from './PickerDialog';

const render = (items: string[], active: number, error = '') =>
  renderToStaticMarkup(
    <PickerDialog
      label="Quick open"
      testId="quick-open"
      inputLabel="File name"
      placeholder="Type a file name"
      query="ab"
      onInput={() => undefined}
      listId="quick-open-list"
      listLabel="Files"
      optionIdPrefix="qo-"
      itemTestId="quick-open-item"
      items={items}
      active={active}
      setActive={() => undefined}
      error={error}
      alertError
      empty="Nothing"
      itemKey={(s) => s}
      renderItem={(s) => <Highlighted path={s} positions={[0]} />}
      onChoose={() => undefined}
      onClose={() => undefined}
    />,
  );

describe('PickerDialog', () => {
  it('is a dialog with a combobox over a listbox of options, the active one selected', () => {
    const html = render(['a.ts', 'b.ts'], 5);
    expect(html).toContain('role="dialog"');
    expect(html).toContain('aria-label="Quick open"');
    expect(html).toContain('data-testid="quick-open"');
    expect(html).toContain('aria-controls="quick-open-list"');
    // the active option is clamped to the list
    expect(html).toContain('aria-activedescendant="qo-1"');
    expect(html.match(/data-testid="quick-open-item"/g)).toHaveLength(2);
    expect(html).toMatch(/id="qo-1" role="option" aria-selected="true"/);
    expect(html).toContain('<mark>a</mark>');
  });

  it('says when nothing is listed, and shows an error in its place', () => {
    expect(render([], 0)).toContain('Nothing');
    const failed = render([], 0, 'broken');
    expect(failed).toContain('role="alert"');
    expect(failed).not.toContain('Nothing');
  });
});
