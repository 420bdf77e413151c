import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphNode } from '@knowing/graph';
import { nodeId } from '@knowing/graph';
import { indexRepository } from '../src/index.js';
import { lexicalDocuments } from '../src/lexical.js';
import { createMemoryStore } from './helpers/memory-store.js';

const shop = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python', 'shop');

function node(name: string, kind: GraphNode['kind'], startLine: number, endLine: number, extra: Partial<GraphNode> = {}): GraphNode {
  const qualifiedName = `src/app.py.${name}`;
  return {
    id: nodeId('repo', qualifiedName, kind),
    name: name.split('.').pop()!,
    qualifiedName,
    kind,
    language: 'python',
    file: 'src/app.py',
    startLine,
    endLine,
    signature: '',
    doc: '',
    isTest: false,
    external: false,
    ...extra,
  };
}

describe('lexicalDocuments', () => {
  const source = [
    'class TemplateRenderer:',
    '    """Renders templates."""',
    '    def render_page(self, pageName):',
    '        # cache the compiled template',
    '        raise ValueError("template not found")',
    '',
  ].join('\n');

  it('gives each symbol its own lines, identifiers split and stemmed, comments and strings included', () => {
    const cls = node('TemplateRenderer', 'class', 1, 5, { doc: 'Renders templates.' });
    const method = node('TemplateRenderer.render_page', 'method', 3, 5, { signature: 'def render_page(self, pageName):' });
    const docs = lexicalDocuments([cls, method], source);
    const body = docs.get(method.id)!.body.split(' ');
    expect(body).toEqual(['def', 'render', 'page', 'self', 'page', 'name', 'cach', 'compil', 'templat', 'rais', 'valu', 'error', 'templat', 'found']);
    // The class keeps its method's first line; the method's other lines are the class's members.
    expect(docs.get(cls.id)!.body.split(' ')).toEqual(['class', 'templat', 'render', 'render', 'templat', 'def', 'render', 'page', 'self', 'page', 'name']);
    expect(docs.get(cls.id)!.members.split(' ')).toEqual(['cach', 'compil', 'templat', 'rais', 'valu', 'error', 'templat', 'found']);
    expect(docs.get(method.id)!.members).toBe('');
    expect(docs.get(method.id)!.name).toBe('render page');
    expect(docs.get(method.id)!.path).toBe('src app py templat render render page');
    expect(docs.get(cls.id)!.doc).toBe('render templat');
  });

  it('skips files and placeholders, and clamps line ranges to the text', () => {
    const file = node('app', 'file', 1, 5);
    const external = { ...node('requests.get', 'function', 0, 0), external: true };
    const beyond = node('late', 'function', 5, 40);
    const docs = lexicalDocuments([file, external, beyond], source);
    expect([...docs.keys()]).toEqual([beyond.id]);
    expect(docs.get(beyond.id)!.body).toBe('rais valu error templat found');
    expect(lexicalDocuments([beyond], undefined).get(beyond.id)!.body).toBe('');
  });
});

describe('indexing writes lexical documents', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'knowing-lexical-'));
    await cp(shop, root, { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('for every symbol, and again for the symbols of an edited file', async () => {
    const store = createMemoryStore();
    await indexRepository({ root, store, repoId: 'fixture', workers: 0 });
    const [reorder] = await store.findNodesByName('reorder');
    expect(store.lexical(reorder!.id)!.body.split(' ')).toEqual(expect.arrayContaining(['previous', 'order', 'id']));

    const file = path.join(root, reorder!.file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('previous = self.store.get(order_id)', 'earlier = self.store.get(order_id)').replace('previous.lines', 'earlier.lines'));
    await indexRepository({ root, store, repoId: 'fixture', workers: 0 });
    const body = store.lexical(reorder!.id)!.body.split(' ');
    expect(body).toContain('earlier');
    expect(body).not.toContain('previous');
  });
});
