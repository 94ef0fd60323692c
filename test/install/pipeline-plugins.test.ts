import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';
import { root } from '../helpers/process';

/**
 * README "Architecture" lists the pipeline's plugins in the order `createPipeline` installs them
 * (issue 29: it had listed 6 of 9). The plugins are read from the source's syntax tree (swc's parser,
 * which the tests' transform already uses) by name, not by file, so moving a plugin to another folder
 * changes nothing here.
 */

/** An swc syntax node, as far as this test reads one. */
type Node = { type?: string; [key: string]: unknown };

const parse = (file: string) =>
  parseSync(readFileSync(path.join(root, file), 'utf8'), { syntax: 'typescript' }) as unknown as Node;

/** The first node within `node`, depth first, that passes `test`. */
function find(node: unknown, test: (node: Node) => boolean): Node | undefined {
  if (!node || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = find(child, test);
      if (found) return found;
    }
    return undefined;
  }
  if (test(node as Node)) return node as Node;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'span') continue;
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

const nameOf = (node: unknown): string | undefined => (node as { value?: string } | undefined)?.value;

const calleeName = (node: Node): string | undefined =>
  node.type === 'CallExpression' && (node.callee as Node).type === 'Identifier'
    ? nameOf(node.callee)
    : undefined;

const unwrap = (node: Node): Node =>
  node.type === 'ParenthesisExpression' ? unwrap(node.expression as Node) : node;

type Element = { spread?: unknown; expression: Node };

/** The elements of the `plugins: [...]` within `node`. */
function pluginsArray(node: Node): Element[] {
  const property = find(
    node,
    (n) =>
      n.type === 'KeyValueProperty' &&
      nameOf(n.key) === 'plugins' &&
      (n.value as Node).type === 'ArrayExpression',
  );
  if (!property) throw new Error('no `plugins: [...]` found');
  return ((property.value as Node).elements as (Element | null)[]).filter((e): e is Element => e !== null);
}

const CALLERS = Symbol('the caller’s plugins');

/**
 * One entry per element: a plugin made by a call (`useErrors(...)`, also when it is spread in on a
 * condition, `...(deps.costBudget ? [useCostBudget(...)] : [])`), the caller's plugins
 * (`...(deps.plugins ?? [])`), or nothing (an inline hook object).
 */
function entries(elements: Element[]): (string | typeof CALLERS)[] {
  return elements.flatMap((element): (string | typeof CALLERS)[] => {
    const called = calleeName(element.expression);
    if (!element.spread) return called ? [called] : [];
    const spread = unwrap(element.expression);
    if (spread.type === 'BinaryExpression' && spread.operator === '??') return [CALLERS];
    const chosen = spread.type === 'ConditionalExpression' ? (spread.consequent as Node) : undefined;
    if (chosen?.type === 'ArrayExpression') {
      return (chosen.elements as Element[])
        .map((e) => calleeName(e.expression))
        .filter((n): n is string => !!n);
    }
    throw new Error(`an element of plugins this test cannot read: ${spread.type}`);
  });
}

/** The names a file imports from the project itself (not from packages such as @envelop/core). */
function ownImports(module: Node): Set<string> {
  const names = new Set<string>();
  for (const item of module.body as Node[]) {
    if (item.type !== 'ImportDeclaration' || !nameOf(item.source)?.startsWith('.')) continue;
    for (const specifier of item.specifiers as Node[]) {
      if (specifier.type === 'ImportSpecifier') names.add(nameOf(specifier.local)!);
    }
  }
  return names;
}

/** The project's plugins in the order the app's pipeline installs them. */
function pipelinePlugins(): string[] {
  const pipeline = parse('src/graphql/pipeline.ts');
  const create = find(
    pipeline,
    (n) => n.type === 'FunctionDeclaration' && nameOf(n.identifier) === 'createPipeline',
  );
  if (!create) throw new Error('no function createPipeline in src/graphql/pipeline.ts');
  const app = parse('src/app.ts');
  const call = find(app, (n) => calleeName(n) === 'createPipeline');
  if (!call) throw new Error('src/app.ts does not call createPipeline');
  const own = ownImports(pipeline);
  const appOwn = ownImports(app);
  const callers = entries(pluginsArray(call)).filter(
    (n): n is string => typeof n === 'string' && appOwn.has(n),
  );
  return entries(pluginsArray(create)).flatMap((entry) =>
    entry === CALLERS ? callers : own.has(entry) ? [entry] : [],
  );
}

/** The `use…` names README's Architecture section gives, in the order it first gives them. */
function readmePlugins(): string[] {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = /^## Architecture\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Architecture" section');
  return [...new Set([...section.matchAll(/`(use[A-Z]\w*)`/g)].map((m) => m[1]!))];
}

it('reads the plugins of createPipeline, the app’s own included', () => {
  const plugins = pipelinePlugins();
  // A plain call, the app's own (through deps.plugins), and one spread in on a condition.
  expect(plugins).toEqual(expect.arrayContaining(['useErrors', 'useOperationMetrics', 'useFairShare']));
  expect(plugins).not.toContain('useEngine');
});

it('is listed in README "Architecture", every plugin in its order', () => {
  expect(readmePlugins()).toEqual(pipelinePlugins());
});
