/** Breadcrumbs over the viewer: the file's folders, its name, then the symbols around the current line (each opens its line). */
import { pathAt } from '../../core/nav/outline';
import { VisibleText } from '../VisibleText';
import { SymbolKind } from './SymbolKind';
import { useOutline } from './use-outline';

export function Breadcrumbs({
  path,
  line,
  repoKey,
  indexVersion,
  onLine,
}: {
  path: string;
  line: number;
  repoKey: string;
  indexVersion: number;
  onLine: (line: number) => void;
}) {
  const outline = useOutline(path, repoKey, indexVersion);
  const parts = path.split('/');
  const chain = outline.state === 'ready' && line ? pathAt(outline.outline, line) : [];
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumbs" data-testid="breadcrumbs">
      <ol>
        {parts.map((p, i) => (
          <li key={i} className={i === parts.length - 1 ? 'crumb-file' : 'crumb-dir'}>
            <VisibleText text={p} />
          </li>
        ))}
        {chain.map((n) => (
          <li key={`${n.startLine}:${n.name}`} className="crumb-sym">
            <button
              type="button"
              className="link"
              onClick={() => onLine(n.line)}
              title={`${n.chunkType} ${n.name}, line ${n.line}`}
            >
              <SymbolKind kind={n.chunkType} /> <VisibleText text={n.name} />
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
