/**
 * A file's or folder's icon (file-icons.ts says which). Decorative: hidden from assistive
 * technology (the name beside it says it all). A badge's glyph is drawn by CSS from a data
 * attribute, so it is no part of the row's text (copying a path or reading a row's text gives
 * the name only).
 */
import { fileIcon } from './file-icons';
import './workspace.css';

export function FileIcon({
  path,
  kind = 'file',
  open = false,
}: {
  path: string;
  kind?: 'file' | 'directory';
  open?: boolean;
}) {
  const spec = fileIcon(path, kind, open);
  if (spec.shape === 'glyph')
    return (
      <span
        className={`ficon ficon-${spec.color}${spec.glyph.length > 1 ? ' ficon-2' : ''}`}
        data-glyph={spec.glyph}
        data-kind={spec.kind}
        aria-hidden="true"
      />
    );
  return (
    <svg
      className={`ficon-svg ficon-${spec.shape}`}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      {spec.shape === 'folder' ? (
        spec.open ? (
          <path d="M1.5 3.5h4l1.5 1.5h6.5v2H4.2L1.5 12.5z M4.2 7h11l-2.7 6H1.5z" />
        ) : (
          <path d="M1.5 3h4.3l1.5 1.6h7.2v8.9h-13z" />
        )
      ) : spec.shape === 'image' ? (
        <>
          <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" className="ficon-frame" />
          <circle cx="5.5" cy="6" r="1.4" />
          <path d="M2.5 12.5l3.8-4 2.6 2.6 1.8-1.8 3 3.2z" />
        </>
      ) : (
        <path d="M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3" className="ficon-frame" />
      )}
    </svg>
  );
}
