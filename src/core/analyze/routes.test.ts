/** Next.js URL rules, table-driven: one file path in, the route (or null) out. */
import { describe, expect, it } from 'vitest';
import { appRouteOf, pagesRouteOf, routeHandlerMethods } from './routes';

describe('appRouteOf (App Router)', () => {
  const cases: Array<[string, ReturnType<typeof appRouteOf>]> = [
    ['page.tsx', { path: '/', type: 'page' }],
    ['layout.tsx', { path: '/', type: 'layout' }],
    ['loading.jsx', { path: '/', type: 'loading' }],
    ['error.js', { path: '/', type: 'error' }],
    ['not-found.tsx', { path: '/', type: 'not-found' }],
    ['template.tsx', { path: '/', type: 'template' }],
    ['default.tsx', { path: '/', type: 'default' }],
    ['global-error.tsx', { path: '/', type: 'global-error' }],
    ['global-not-found.tsx', { path: '/', type: 'global-not-found' }],
    ['forbidden.tsx', { path: '/', type: 'forbidden' }],
    ['unauthorized.tsx', { path: '/', type: 'unauthorized' }],
    ['api/users/route.ts', { path: '/api/users', type: 'api' }],
    ['webhooks/route.js', { path: '/webhooks', type: 'api' }],
    ['about/page.mdx', { path: '/about', type: 'page' }],
    // route groups are removed, dynamic segments kept as written
    ['(marketing)/about/page.tsx', { path: '/about', type: 'page' }],
    ['(shop)/(nested)/cart/page.tsx', { path: '/cart', type: 'page' }],
    ['blog/[slug]/page.tsx', { path: '/blog/[slug]', type: 'page' }],
    ['docs/[...slug]/page.tsx', { path: '/docs/[...slug]', type: 'page' }],
    ['shop/[[...slug]]/page.tsx', { path: '/shop/[[...slug]]', type: 'page' }],
    ['%5Fdocs/page.tsx', { path: '/_docs', type: 'page' }],
    // parallel routes: the slot is not a URL segment
    ['@modal/default.tsx', { path: '/', type: 'default', slot: 'modal' }],
    ['dashboard/@team/page.tsx', { path: '/dashboard', type: 'page', slot: 'team' }],
    ['dashboard/@team/settings/page.tsx', { path: '/dashboard/settings', type: 'page', slot: 'team' }],
    ['dashboard/@team/layout.tsx', { path: '/dashboard', type: 'layout', slot: 'team' }],
    // intercepting routes: the URL intercepted, and where from
    [
      'feed/(.)photo/[id]/page.tsx',
      { path: '/feed/photo/[id]', type: 'page', intercept: { marker: '(.)', from: '/feed' } },
    ],
    [
      'feed/(..)photo/[id]/page.tsx',
      { path: '/photo/[id]', type: 'page', intercept: { marker: '(..)', from: '/feed' } },
    ],
    ['a/b/(..)(..)c/page.tsx', { path: '/c', type: 'page', intercept: { marker: '(..)(..)', from: '/a/b' } }],
    ['a/b/(...)c/page.tsx', { path: '/c', type: 'page', intercept: { marker: '(...)', from: '/a/b' } }],
    [
      '@modal/(.)login/page.tsx',
      { path: '/login', type: 'page', slot: 'modal', intercept: { marker: '(.)', from: '/' } },
    ],
    [
      '(group)/feed/(..)photo/page.tsx',
      { path: '/photo', type: 'page', intercept: { marker: '(..)', from: '/feed' } },
    ],
    [
      '(..)photo/page.tsx',
      {
        path: '/photo',
        type: 'page',
        intercept: { marker: '(..)', from: '/' },
        warning: 'Invalid interception route (..)photo/page.tsx: (..) climbs above the root',
      },
    ],
    // metadata files
    ['sitemap.ts', { path: '/sitemap.xml', type: 'metadata' }],
    ['robots.txt', { path: '/robots.txt', type: 'metadata' }],
    ['favicon.ico', { path: '/favicon.ico', type: 'metadata' }],
    ['blog/[slug]/opengraph-image.tsx', { path: '/blog/[slug]/opengraph-image', type: 'metadata' }],
    ['icon.png', { path: '/icon.png', type: 'metadata' }],
    // not routes
    ['_components/page.tsx', null],
    ['blog/_lib/route.ts', null],
    ['blog/_route.ts', null],
    ['_page.tsx', null],
    ['blog/utils.ts', null],
    ['components/header.tsx', null],
    ['page.test.tsx', null],
    ['page.d.ts', null],
    ['page.css', null],
    ['route.mdx', null],
    ['blog/favicon.ico', null],
    ['Page.tsx', null],
  ];
  it.each(cases)('%s', (rel, want) => {
    expect(appRouteOf(rel)).toEqual(want);
  });
});

describe('pagesRouteOf (Pages Router)', () => {
  const cases: Array<[string, ReturnType<typeof pagesRouteOf>]> = [
    ['index.tsx', { path: '/', type: 'page' }],
    ['about.jsx', { path: '/about', type: 'page' }],
    ['blog/index.tsx', { path: '/blog', type: 'page' }],
    ['blog/[slug].tsx', { path: '/blog/[slug]', type: 'page' }],
    ['docs/[...path].js', { path: '/docs/[...path]', type: 'page' }],
    ['settings/[[...tab]].tsx', { path: '/settings/[[...tab]]', type: 'page' }],
    ['api/hello.ts', { path: '/api/hello', type: 'api' }],
    ['api/index.ts', { path: '/api', type: 'api' }],
    ['api/users/[id].ts', { path: '/api/users/[id]', type: 'api' }],
    ['404.tsx', { path: '/404', type: 'not-found' }],
    ['500.tsx', { path: '/500', type: 'error' }],
    ['_app.tsx', null],
    ['_document.tsx', null],
    ['_error.tsx', null],
    ['about.test.tsx', null],
    ['__tests__/index.tsx', null],
    ['types.d.ts', null],
    ['styles.css', null],
  ];
  it.each(cases)('%s', (rel, want) => {
    expect(pagesRouteOf(rel)).toEqual(want);
  });
});

describe('routeHandlerMethods', () => {
  const cases: Array<[string, string[]]> = [
    ['export async function GET() {}\nexport function POST() {}', ['GET', 'POST']],
    [
      'export const DELETE = handler;\nexport { handler as PATCH, other as OPTIONS };',
      ['DELETE', 'PATCH', 'OPTIONS'],
    ],
    ['export { HEAD } from "./x"', ['HEAD']],
    ['function GET() {}\nexport default GET;', []],
    ['export const GETTER = 1;', []],
  ];
  it.each(cases)('%s', (text, want) => {
    expect(routeHandlerMethods(text)).toEqual(want);
  });
});
