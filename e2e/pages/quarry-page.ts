/** Page object for Quarry: roles and accessible names first, data-testid for structure. */
import { expect, type Locator, type Page } from '@playwright/test';

export class QuarryPage {
  constructor(readonly page: Page) {}

  get openFolderButton(): Locator {
    return this.page.getByRole('button', { name: 'Open folder', exact: true });
  }
  get folderInput(): Locator {
    return this.page.getByTestId('folder-input');
  }
  get searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search' });
  }
  get tree(): Locator {
    return this.page.getByRole('tree', { name: 'Files' });
  }
  get repoName(): Locator {
    return this.page.getByTestId('repo-name');
  }
  get summary(): Locator {
    return this.page.getByTestId('search-summary');
  }
  get hits(): Locator {
    return this.page.getByTestId('result-hit');
  }
  get contextLines(): Locator {
    return this.page.getByTestId('result-context');
  }
  get opening(): Locator {
    return this.page.getByTestId('opening');
  }
  get indexStatus(): Locator {
    return this.page.getByTestId('index-status');
  }
  get rankedHits(): Locator {
    return this.page.getByTestId('ranked-hit');
  }
  get semanticHits(): Locator {
    return this.page.getByTestId('semantic-hit');
  }
  get relatedPanel(): Locator {
    return this.page.getByRole('complementary', { name: 'Related code' });
  }
  /** Wait until the code index is built; returns its refresh mode (cache_hit, incremental, full). */
  async waitForIndex(timeout = 90_000): Promise<string> {
    await expect(this.indexStatus).toHaveAttribute('data-state', 'ready', { timeout });
    return (await this.indexStatus.getAttribute('data-mode')) ?? '';
  }
  mode(name: 'Text' | 'Regex' | 'Ranked' | 'Semantic' | 'Hybrid'): Locator {
    return this.page.getByRole('radio', { name });
  }
  viewer(path: string): Locator {
    return this.page.getByRole('region', { name: path, exact: true });
  }
  treeItem(name: string): Locator {
    return this.tree.getByRole('treeitem', { name, exact: true });
  }
  codeLine(n: number): Locator {
    return this.page.locator(`[data-testid="code-line"][data-line="${n}"]`);
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(query ? `./${query}` : './');
  }

  /**
   * Open the app with no repository (`?repo=none`, the home screen): for a test that opens a folder
   * of its own, the demo (6 MB read and indexed, ~2 CPU s in a new context) is not opened first.
   */
  async gotoEmpty(): Promise<void> {
    await this.page.goto('./?repo=none');
    await expect(this.page.getByTestId('home')).toBeVisible();
  }

  /** Wait until a repository is open (its name in the header, the tree shown, no progress). */
  async waitForRepo(name: string | RegExp, timeout = 30_000): Promise<void> {
    await expect(this.repoName).toContainText(name, { timeout });
    await expect(this.opening).toHaveCount(0, { timeout });
    await expect(this.tree).toBeVisible();
  }

  async search(
    text: string,
    mode: 'Text' | 'Regex' | 'Ranked' | 'Semantic' | 'Hybrid' = 'Text',
  ): Promise<void> {
    await this.mode(mode).check();
    await this.searchBox.fill(text);
  }

  async waitForSearchDone(): Promise<void> {
    await expect(this.summary).not.toContainText('Searching', { timeout: 30_000 });
    await expect(this.summary).not.toHaveText('');
  }
}
