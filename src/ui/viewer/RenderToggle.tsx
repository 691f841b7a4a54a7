/**
 * The viewer bar's switch between a file rendered (a Markdown page, an SVG picture) and its
 * source: two buttons, the current one pressed. The choice is the address's `md` field.
 */
export function RenderToggle({
  rendered,
  renderedLabel,
  onChange,
}: {
  rendered: boolean;
  renderedLabel: string;
  onChange: (rendered: boolean) => void;
}) {
  return (
    <div className="render-toggle" role="group" aria-label="Show as" data-testid="render-toggle">
      <button
        type="button"
        className="toggle"
        aria-pressed={rendered}
        onClick={() => !rendered && onChange(true)}
      >
        {renderedLabel}
      </button>
      <button
        type="button"
        className="toggle"
        aria-pressed={!rendered}
        onClick={() => rendered && onChange(false)}
      >
        Source
      </button>
    </div>
  );
}
