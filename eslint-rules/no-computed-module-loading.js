// @ts-check
/**
 * quarry/no-computed-module-loading (part of the quarry plugin, boundaries.js): no `import(expr)`
 * / `require(expr)` with a non-literal argument, no `createRequire`, no eval'd code (`eval`,
 * `new Function`, a Worker started with `eval: true`): a module name built from a string would
 * slip past quarry/layers and quarry/browser-closure.
 */

/** A string literal's value (or a template literal's, without expressions), else null. */
export const literalString = (node) => {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
};

/** @type {import('eslint').Rule.RuleModule} */
export const noComputedModuleLoading = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Modules are loaded by literal names only, so the layer rules can see every import',
    },
    schema: [],
    messages: {
      computed:
        "{{what}} with a computed module name hides the import from the layer rules: use a literal ('./x')",
      createRequire:
        'createRequire loads modules the layer rules cannot follow: only src/cli and src/adapters/node may use it',
      evalCode: '{{what}} runs code built from a string, which the layer rules cannot follow',
    },
  },
  create(context) {
    return {
      ImportExpression(node) {
        if (literalString(node.source) === null)
          context.report({ node, messageId: 'computed', data: { what: 'import()' } });
      },
      CallExpression(node) {
        if (node.callee.type !== 'Identifier') return;
        if (node.callee.name === 'require' && literalString(node.arguments[0]) === null)
          context.report({ node, messageId: 'computed', data: { what: 'require()' } });
        if (node.callee.name === 'eval')
          context.report({ node, messageId: 'evalCode', data: { what: 'eval()' } });
      },
      NewExpression(node) {
        if (node.callee.type !== 'Identifier') return;
        if (node.callee.name === 'Function')
          context.report({ node, messageId: 'evalCode', data: { what: 'new Function()' } });
        let opts = node.arguments[1];
        while (opts && /^TS(As|Satisfies|NonNull)Expression$|^TSTypeAssertion$/.test(opts.type))
          opts = opts.expression;
        if (
          node.callee.name.endsWith('Worker') &&
          opts?.type === 'ObjectExpression' &&
          opts.properties.some(
            (p) =>
              p.type === 'Property' &&
              !p.computed &&
              p.key.type === 'Identifier' &&
              p.key.name === 'eval' &&
              !(p.value.type === 'Literal' && p.value.value === false),
          )
        )
          context.report({ node, messageId: 'evalCode', data: { what: 'a Worker started with eval: true' } });
      },
      // import { createRequire } from 'node:module' / module.createRequire / const { createRequire } = ...
      ImportSpecifier(node) {
        if ((node.imported.name ?? node.imported.value) === 'createRequire')
          context.report({ node, messageId: 'createRequire' });
      },
      MemberExpression(node) {
        if (!node.computed && node.property.type === 'Identifier' && node.property.name === 'createRequire')
          context.report({ node, messageId: 'createRequire' });
      },
      'ObjectPattern > Property'(node) {
        if (!node.computed && node.key.type === 'Identifier' && node.key.name === 'createRequire')
          context.report({ node, messageId: 'createRequire' });
      },
    };
  },
};
