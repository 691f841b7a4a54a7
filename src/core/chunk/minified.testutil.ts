/** `function a0(){return 0}function a1(){return 1}...` on one line, at least `chars` long (a minified bundle's shape). */
export function oneLineBundle(chars: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const f = `function a${i}(){return ${i}}`;
    parts.push(f);
    n += f.length;
  }
  return parts.join('');
}
