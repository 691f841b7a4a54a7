/**
 * The hover card over a name in the viewer: its definition's signature (coloured as code) and
 * doc comment from the symbol index, where it is, and how many others share the name. All of
 * it is repository text rendered as React text (CodeText, VisibleText): never markup.
 */
import { CodeText } from '../CodeText';
import { languageOf } from '../highlight';
import { VisibleText } from '../VisibleText';
import type { HoverCardState } from './use-hover';

export function HoverCard({
  id,
  card,
  onEnter,
  onLeave,
}: {
  id: string;
  card: HoverCardState;
  onEnter: () => void;
  onLeave: () => void;
}) {
  const { info, name } = card;
  const first = info.state === 'ready' ? info.result.definitions[0] : undefined;
  const count = info.state === 'ready' ? info.result.definitions.length : 0;
  return (
    <div
      id={id}
      className={`hover-card${card.above ? ' above' : ''}`}
      role="tooltip"
      data-testid="hover-card"
      style={{ left: card.x, top: card.y }}
      onMouseEnter={onEnter}
      onMouseLeave={onLeave}
    >
      {info.state === 'loading' && (
        <p className="hover-note">
          Looking up <VisibleText text={name} />…
        </p>
      )}
      {info.state === 'error' && (
        <p className="hover-note">
          <VisibleText text={info.message} />
        </p>
      )}
      {info.state === 'ready' && !first && (
        <p className="hover-note">
          No definition of <code>{name}</code> in the symbol index.
        </p>
      )}
      {first && (
        <>
          <pre className="hover-signature" data-testid="hover-signature">
            {(first.signature || first.text).split('\n').map((l, i) => (
              <div key={i}>
                <CodeText text={l} lang={languageOf(first.path)} />
              </div>
            ))}
          </pre>
          {first.doc && (
            <div className="hover-doc" data-testid="hover-doc">
              <VisibleText text={first.doc} multiline />
            </div>
          )}
          <p className="hover-where">
            <VisibleText text={first.path} />:{first.line}
            {count > 1 && ` · ${count - 1} more definition${count > 2 ? 's' : ''}`}
            {card.byKey && (
              <>
                {' '}
                · <kbd>F12</kbd> go
              </>
            )}{' '}
            · <kbd>Esc</kbd> close
          </p>
        </>
      )}
    </div>
  );
}
