/**
 * A project built from stored links and tables, which loads only the files a resolution
 * reaches (what a one-file re-index uses), resolves each file exactly as a project built over
 * every file's full extraction does: edges, externals, test targets and nodes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeTables, encodeTables, openTables } from '../src/codec.js';
import { discoverFiles } from '../src/discover.js';
import { createLanguageRegistry } from '../src/languages/registry.js';
import { createParser, withTree } from '../src/parser.js';
import { Project } from '../src/resolve.js';
import type { ProjectFile, ProjectLinks } from '../src/resolve.js';
import { tableOf } from '../src/state.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const registry = createLanguageRegistry();

interface Fixture {
  readonly files: ProjectFile[];
  readonly paths: string[];
  readonly goModulePath: string | undefined;
}

async function loadFixture(root: string): Promise<Fixture> {
  const discovery = await discoverFiles({ root, accept: (file) => registry.forPath(file) !== undefined });
  const files: ProjectFile[] = [];
  for (const file of discovery.files) {
    const language = registry.forPath(file.path)!;
    const source = await readFile(file.absolutePath, 'utf8');
    const parser = await createParser(language.grammarFor(file.path));
    files.push({ path: file.path, extraction: withTree(parser, source, (tree) => language.extract(tree.rootNode, source, file.path)), language });
  }
  const goMod = await readFile(path.join(root, 'go.mod'), 'utf8').catch(() => '');
  return { files, paths: discovery.files.map((f) => f.path), goModulePath: /^\s*module\s+(\S+)/m.exec(goMod)?.[1] };
}

function outputOf(project: Project, file: string): unknown {
  const unit = project.unitOf(file)!;
  const output = project.edgesOf(unit);
  return { edges: output.edges, externals: [...output.externals].sort(), tests: output.tests, nodes: project.nodesOf(unit) };
}

/** The links and tables a full run stores, read back as a later run reads them. */
function storeAndOpen(project: Project, fixture: Fixture): { links: ProjectLinks; load: (index: number) => ProjectFile } {
  const links = project.links();
  const byPath = new Map(fixture.files.map((file) => [file.path, file]));
  const reader = openTables(encodeTables(links.paths.map((file) => tableOf(byPath.get(file)!.extraction)), links).bytes)!;
  return {
    links: reader.links!,
    load: (index) => ({ path: links.paths[index]!, extraction: reader.table(index), language: byPath.get(links.paths[index]!)!.language, deduplicated: true }),
  };
}

describe('projects built from links', () => {
  const cases = [
    ['Python', 'python/shop'],
    ['TypeScript', 'typescript/shop'],
    ['Go (module path, receivers in other files)', 'go'],
    ['Rust (impl blocks, implementations declared apart)', 'rust'],
    ['Java', 'java'],
    ['C# (partial classes)', 'csharp'],
    ['Ruby (reopened classes, constant paths)', 'ruby'],
  ] as const;

  for (const [name, dir] of cases) {
    it(`resolve every ${name} file, given alone in full, as the project over all full extractions does`, async () => {
      const fixture = await loadFixture(path.join(fixtures, dir));
      const options = { allPaths: fixture.paths, ...(fixture.goModulePath ? { goModulePath: fixture.goModulePath } : {}) };
      const full = new Project('r', fixture.files, options);
      const expected = new Map(fixture.paths.map((file) => [file, outputOf(full, file)]));
      const linked = storeAndOpen(new Project('r', fixture.files, options), fixture);
      for (const file of fixture.files) {
        const project = Project.fromLinks('r', [file], { ...options, linked })!;
        expect(project).toBeDefined();
        expect(outputOf(project, file.path), file.path).toEqual(expected.get(file.path));
      }
    });
  }

  it('refuse links taken over other files or under another Go module path', async () => {
    const fixture = await loadFixture(path.join(fixtures, 'go'));
    const options = { allPaths: fixture.paths, goModulePath: fixture.goModulePath! };
    const linked = storeAndOpen(new Project('r', fixture.files, options), fixture);
    const file = fixture.files[0]!;
    expect(Project.fromLinks('r', [file], { ...options, linked })).toBeDefined();
    expect(Project.fromLinks('r', [file], { ...options, goModulePath: 'example.com/elsewhere', linked })).toBeUndefined();
    expect(Project.fromLinks('r', [file], { ...options, allPaths: fixture.paths.slice(1), linked })).toBeUndefined();
    expect(Project.fromLinks('r', [file], { ...options, allPaths: [...fixture.paths, 'zz/new.go'], linked })).toBeUndefined();
  });

  it('store links with the tables, which read back one table at a time', async () => {
    const fixture = await loadFixture(path.join(fixtures, 'rust'));
    const project = new Project('r', fixture.files, { allPaths: fixture.paths });
    const links = project.links();
    const tables = fixture.files.map((file) => tableOf(file.extraction));
    const { bytes } = encodeTables(tables, links);
    const reader = openTables(bytes)!;
    expect(reader.count).toBe(tables.length);
    expect(reader.table(tables.length - 1)).toEqual(JSON.parse(JSON.stringify(tables[tables.length - 1])));
    expect(JSON.parse(JSON.stringify(reader.links))).toEqual(JSON.parse(JSON.stringify(links)));
    expect(links.attached.length).toBeGreaterThan(0);
    expect(links.implementations.length).toBeGreaterThan(0);
    expect(decodeTables(bytes)?.tables).toEqual(JSON.parse(JSON.stringify(tables)));
    expect(() => reader.table(tables.length)).toThrow(RangeError);
  });
});
