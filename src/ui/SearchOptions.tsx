/**
 * The search box's options: the mode (Text, Regex, Ranked, Semantic, Hybrid), Match case and
 * Whole word (Text and Regex only), and "+ Filter", which writes a filter into the query (the
 * include / exclude / extensions fields of old are filters of the query language now: file:,
 * -file:, lang:). A link of old with those fields keeps them in Ranked, Semantic and Hybrid
 * modes (which read them), said here with a way to clear them; Text and Regex turn them into
 * filters of the query (SearchPanel).
 */
import { SEARCH_MODES, type SearchMode, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import { FilterMenu } from './query/FilterMenu';

const MODE_LABELS: Record<SearchMode, string> = {
  text: 'Text',
  regex: 'Regex',
  ranked: 'Ranked',
  semantic: 'Semantic',
  hybrid: 'Hybrid',
};
const MODE_TITLES: Record<SearchMode, string> = {
  text: 'Exact text, like ripgrep, with filters such as lang: and file:',
  regex: 'A regular expression (RE2 syntax), with filters such as lang: and file:',
  ranked: 'Code ranked by its words and identifiers (BM25 with code-aware weights)',
  semantic: 'By meaning, with the embedding model',
  hybrid: 'Ranked fused with the embedding model',
};

/** The on/off options of Text and Regex. */
const TOGGLES = [
  ['caseSensitive', 'Match case'],
  ['wholeWord', 'Whole word'],
] as const;

/** The old fields a link set, as words ('' when none). */
function legacyText(view: ViewState): string {
  return [
    view.include && `include ${view.include}`,
    view.exclude && `exclude ${view.exclude}`,
    view.ext && `extensions ${view.ext}`,
  ]
    .filter(Boolean)
    .join(', ');
}

export function SearchOptions({
  view,
  update,
  ranked,
  onFilter,
}: {
  view: ViewState;
  update: UpdateView;
  /** The mode ranks chunks: no case or whole-word options, no query filters. */
  ranked: boolean;
  /** Write a filter into the query. */
  onFilter: (filter: string) => void;
}) {
  const legacy = ranked ? legacyText(view) : '';
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
        {!ranked && <FilterMenu onChoose={onFilter} />}
      </div>
      {legacy && (
        <p className="query-note" data-testid="legacy-filters">
          Also filtered by the link: {legacy}.
          <button type="button" onClick={() => update({ include: '', exclude: '', ext: '' })}>
            Clear
          </button>
        </p>
      )}
    </>
  );
}
