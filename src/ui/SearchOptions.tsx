/**
 * The search box's options: the mode (Text, Regex, Ranked, Semantic, Hybrid), Match case and
 * Whole word (Text and Regex only), and the include / exclude / extensions filters behind a
 * toggle (open at first when one is set), each committed to the view after a pause in typing.
 */
import { useState } from 'react';
import { SEARCH_MODES, type SearchMode, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import { useDebouncedDraft } from './views/use-tool';

const MODE_LABELS: Record<SearchMode, string> = {
  text: 'Text',
  regex: 'Regex',
  ranked: 'Ranked',
  semantic: 'Semantic',
  hybrid: 'Hybrid',
};
const MODE_TITLES: Record<SearchMode, string> = {
  text: 'Exact text, like ripgrep',
  regex: 'A regular expression (RE2 syntax)',
  ranked: 'Code ranked by its words and identifiers (BM25 with code-aware weights)',
  semantic: 'By meaning, with the embedding model',
  hybrid: 'Ranked fused with the embedding model',
};

/** The on/off options of Text and Regex. */
const TOGGLES = [
  ['caseSensitive', 'Match case'],
  ['wholeWord', 'Whole word'],
] as const;

export function SearchOptions({
  view,
  update,
  ranked,
}: {
  view: ViewState;
  update: UpdateView;
  /** The mode ranks chunks: no case or whole-word options. */
  ranked: boolean;
}) {
  const [showFilters, setShowFilters] = useState(Boolean(view.include || view.exclude || view.ext));
  return (
    <>
      <div className="search-options">
        <div role="radiogroup" aria-label="Search mode" className="segmented">
          {SEARCH_MODES.map((m) => (
            <label key={m} className={view.mode === m ? 'on' : ''} title={MODE_TITLES[m]}>
              <input
                type="radio"
                name="mode"
                value={m}
                checked={view.mode === m}
                onChange={() => update({ mode: m })}
              />
              {MODE_LABELS[m]}
            </label>
          ))}
        </div>
        {!ranked &&
          TOGGLES.map(([field, label]) => (
            <button
              key={field}
              type="button"
              className="toggle"
              aria-pressed={view[field]}
              onClick={() => update({ [field]: !view[field] })}
              title={label}
            >
              {label}
            </button>
          ))}
        <button
          type="button"
          className="toggle"
          aria-expanded={showFilters}
          aria-controls="search-filters"
          onClick={() => setShowFilters((s) => !s)}
        >
          Filters{view.include || view.exclude || view.ext ? ' •' : ''}
        </button>
      </div>
      {showFilters && (
        <div className="search-filters" id="search-filters">
          <FilterField
            label="Include"
            placeholder="src/**, *.ts"
            value={view.include}
            onCommit={(v) => update({ include: v })}
          />
          <FilterField
            label="Exclude"
            placeholder="*.test.ts"
            value={view.exclude}
            onCommit={(v) => update({ exclude: v })}
          />
          <FilterField
            label="Extensions"
            placeholder="ts, tsx"
            value={view.ext}
            onCommit={(v) => update({ ext: v })}
          />
        </div>
      )}
    </>
  );
}

function FilterField({
  label,
  placeholder,
  value,
  onCommit,
}: {
  label: string;
  placeholder: string;
  value: string;
  onCommit: (v: string) => void;
}) {
  const [draft, setDraft] = useDebouncedDraft(value, onCommit, 300);
  return (
    <label className="filter-field">
      <span>{label}</span>
      <input
        type="text"
        value={draft}
        placeholder={placeholder}
        spellCheck={false}
        onChange={(e) => setDraft(e.target.value)}
      />
    </label>
  );
}
