/** Lines of a file as the index numbers them: '\n' separates, a trailing '\r' is dropped, a final newline does not start a line. */
export function splitLinesForIndex(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  return lines;
}
