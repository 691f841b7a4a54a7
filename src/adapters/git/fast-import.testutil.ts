/** The `git fast-import` stream of commits on main (the test repositories' quick way to make many commits). */

export interface ImportCommit {
  message: string;
  files: Record<string, string | null>;
  /** `Name <email> <seconds> +0000`, author and committer alike. */
  who: string;
}

/** One commit after another on refs/heads/main, the first on `parent` (none: a root); null deletes a file. */
export function commitsImportStream(commits: readonly ImportCommit[], parent: string | null): Buffer {
  const parts: Buffer[] = [];
  const data = (text: string) => {
    const buf = Buffer.from(text, 'utf8');
    parts.push(Buffer.from(`data ${buf.length}\n`), buf, Buffer.from('\n'));
  };
  commits.forEach((c, i) => {
    parts.push(Buffer.from(`commit refs/heads/main\nmark :${i + 1}\nauthor ${c.who}\ncommitter ${c.who}\n`));
    data(c.message);
    if (i > 0) parts.push(Buffer.from(`from :${i}\n`));
    else if (parent) parts.push(Buffer.from(`from ${parent}\n`));
    for (const [path, content] of Object.entries(c.files)) {
      if (content === null) parts.push(Buffer.from(`D ${path}\n`));
      else {
        parts.push(Buffer.from(`M 100644 inline ${path}\n`));
        data(content);
      }
    }
    parts.push(Buffer.from('\n'));
  });
  return Buffer.concat(parts);
}
