/**
 * Core resolution rules on small in-memory projects: static imports, placeholder names,
 * attribute names, Ruby constant lookup, inline modules, test calls from test files, and
 * implementations declared apart from their type.
 */
import { describe, expect, it } from 'vitest';
import { derive } from '../src/derive.js';
import { createLanguageRegistry } from '../src/languages/registry.js';
import { createParser, withTree } from '../src/parser.js';
import { Project } from '../src/resolve.js';
import type { ProjectFile, TestTargets } from '../src/resolve.js';

const registry = createLanguageRegistry();

/** `type source -> target` for every edge except contains/member_of, sorted; placeholders as `external:…`. */
async function edgesOf(sources: Record<string, string>): Promise<string[]> {
  const files: ProjectFile[] = [];
  for (const [file, source] of Object.entries(sources)) {
    const language = registry.forPath(file)!;
    const parser = await createParser(language.grammarFor(file));
    files.push({ path: file, extraction: withTree(parser, source, (tree) => language.extract(tree.rootNode, source, file)), language });
  }
  const project = new Project('r', files, { allPaths: Object.keys(sources) });
  const names = new Map<string, string>();
  for (const unit of project.units) for (const node of project.nodesOf(unit)) names.set(node.id, node.qualifiedName);
  const testTargets: TestTargets = new Map();
  const outputs = project.units.map((unit) => project.edgesOf(unit, testTargets));
  for (const output of outputs) for (const name of output.externals) names.set(project.externalId(name), name);
  const edges = [...outputs.flatMap((output) => output.edges), ...[...derive(project, testTargets).values()].flatMap((output) => output.edges)];
  return edges
    .filter((edge) => edge.type !== 'contains' && edge.type !== 'member_of')
    .map((edge) => `${edge.type} ${names.get(edge.source) ?? edge.source} -> ${names.get(edge.target) ?? edge.target}`)
    .sort();
}

describe('static imports', () => {
  it('binds Java static imports, single and wildcard, to members of the class they name', async () => {
    const edges = await edgesOf({
      'src/a/Util.java': 'package a;\npublic class Util {\n  public static int twice(int x) { return x; }\n  public static int thrice(int x) { return x; }\n}\n',
      'src/b/Main.java':
        'package b;\nimport static a.Util.twice;\nimport static a.Util.*;\nclass Main {\n  int run() { return twice(1) + thrice(2); }\n}\n',
    });
    expect(edges).toContain('calls src/b/Main.java.Main.run -> src/a/Util.java.Util.twice');
    expect(edges).toContain('calls src/b/Main.java.Main.run -> src/a/Util.java.Util.thrice');
  });

  it('binds a Java import of a nested class to the nested class', async () => {
    const edges = await edgesOf({
      'src/a/Outer.java': 'package a;\npublic class Outer {\n  public static class Inner {\n    public Inner() {}\n  }\n}\n',
      'src/b/Main.java': 'package b;\nimport a.Outer.Inner;\nclass Main {\n  Object make() { return new Inner(); }\n}\n',
    });
    expect(edges).toContain('calls src/b/Main.java.Main.make -> src/a/Outer.java.Outer.Inner.Inner');
  });
});

describe('external placeholder names', () => {
  it('does not repeat the class when the import source names it (Java), but keeps module.name elsewhere (Python)', async () => {
    const java = await edgesOf({
      'src/Main.java': 'package b;\nimport java.util.Map;\nclass Main {\n  void run(Map<String, String> m) { m.clear(); Map.of(); }\n}\n',
    });
    expect(java).toContain('calls src/Main.java.Main.run -> external:java.util.Map.clear');
    expect(java).toContain('calls src/Main.java.Main.run -> external:java.util.Map.of');
    const python = await edgesOf({ 'app.py': 'from tqdm import tqdm\n\n\ndef main():\n    tqdm([])\n' });
    expect(python).toContain('calls app.py.main -> external:tqdm.tqdm');
  });
});

describe('C# attributes', () => {
  it('finds `[Name]` as `NameAttribute`, and `[NameAttribute]` as written', async () => {
    const edges = await edgesOf({
      'src/Audit.cs': 'namespace Acme;\npublic class AuditAttribute : System.Attribute { }\n',
      'src/Service.cs': 'namespace Acme;\n[Audit]\npublic class A { }\n[AuditAttribute]\npublic class B { }\n[Obsolete]\npublic class C { }\n',
    });
    expect(edges.filter((line) => line.startsWith('decorates'))).toEqual([
      'decorates external:Obsolete -> src/Service.cs.C',
      'decorates src/Audit.cs.AuditAttribute -> src/Service.cs.A',
      'decorates src/Audit.cs.AuditAttribute -> src/Service.cs.B',
    ]);
  });
});

describe('Ruby constants', () => {
  it('looks a constant up in the enclosing modules innermost first, then the top level, across files', async () => {
    const edges = await edgesOf({
      'lib/a/config.rb': 'module A\n  class Config\n    def initialize; end\n  end\nend\n',
      'lib/config.rb': 'class Config\n  def initialize; end\nend\n',
      'lib/a/b/runner.rb': 'module A\n  module B\n    class Runner\n      def run\n        Config.new\n      end\n    end\n  end\nend\n',
      'lib/top.rb': 'class Top\n  def run\n    Config.new\n  end\nend\n',
    });
    expect(edges).toContain('calls lib/a/b/runner.rb.A::B::Runner.run -> lib/a/config.rb.A::Config.initialize');
    expect(edges).toContain('calls lib/top.rb.Top.run -> lib/config.rb.Config.initialize');
  });

  it('reaches compact `class A::B` definitions and members of every reopening of a class', async () => {
    const edges = await edgesOf({
      'lib/a.rb': 'module A\n  def self.setting; end\nend\n',
      'lib/a/b.rb': 'class A::B\n  def initialize; end\nend\n',
      'lib/a/b/ext.rb': 'class A::B\n  def extra; end\nend\n',
      'lib/use.rb': 'class User\n  def run\n    b = A::B.new\n    b.extra\n    A.setting\n  end\nend\n',
    });
    expect(edges).toContain('calls lib/use.rb.User.run -> lib/a/b.rb.A::B.initialize');
    expect(edges).toContain('calls lib/use.rb.User.run -> lib/a/b/ext.rb.A::B.extra');
    expect(edges).toContain('calls lib/use.rb.User.run -> lib/a.rb.A.setting');
  });
});

describe('test calls from test files', () => {
  it('makes the file the source of tests edges for calls outside any test definition (Python module level)', async () => {
    const edges = await edgesOf({
      'pkg/app.py': 'def create_app():\n    return 1\n',
      'tests/test_app.py': 'from pkg.app import create_app\n\napp = create_app()\n',
    });
    expect(edges).toContain('tests tests/test_app.py -> pkg/app.py.create_app');
    expect(edges).toContain('tested_by pkg/app.py.create_app -> tests/test_app.py');
  });
});

describe('Rust implementations', () => {
  it('makes a type implement a trait from an impl in a third file, with overrides and inherits', async () => {
    const edges = await edgesOf({
      'src/lib.rs': 'pub mod shape;\npub mod circle;\npub mod impls;\n',
      'src/shape.rs': 'pub trait Shape {\n    fn area(&self) -> f64;\n    fn name(&self) -> String { String::new() }\n}\n',
      'src/circle.rs': 'pub struct Circle;\n',
      'src/impls.rs': 'use crate::shape::Shape;\nuse crate::circle::Circle;\n\nimpl Shape for Circle {\n    fn area(&self) -> f64 { 1.0 }\n}\n',
    });
    expect(edges).toContain('implements src/circle.rs.Circle -> src/shape.rs.Shape');
    expect(edges).toContain('overrides src/impls.rs.Circle.area -> src/shape.rs.Shape.area');
    expect(edges).toContain('inherits src/circle.rs.Circle -> src/shape.rs.Shape.name');
  });

  it('implements an external trait as a placeholder, and a trait of an inline module', async () => {
    const edges = await edgesOf({
      'src/lib.rs': 'use serde::Serialize;\npub struct Item;\nimpl Serialize for Item {}\nmod inner {\n    pub trait Tag {}\n    pub struct Label;\n    impl Tag for Label {}\n}\n',
    });
    expect(edges).toContain('implements src/lib.rs.Item -> external:serde.Serialize');
    expect(edges).toContain('implements src/lib.rs.inner.Label -> src/lib.rs.inner.Tag');
  });

  it('implements for type aliases and for types declared in a function body', async () => {
    const edges = await edgesOf({
      'src/lib.rs': [
        'use serde::de;',
        'pub struct Field<T>(T);',
        'pub type Name = Field<String>;',
        "impl<'de> de::Deserialize<'de> for Name {",
        "    fn deserialize<D>(d: D) -> Result<Self, D::Error> {",
        '        struct NameVisitor;',
        "        impl<'de> de::Visitor<'de> for NameVisitor {}",
        '        d.deserialize_any(NameVisitor)',
        '    }',
        '}',
      ].join('\n'),
    });
    expect(edges.filter((line) => line.startsWith('implements'))).toEqual([
      'implements src/lib.rs.Name -> external:serde.de.Deserialize',
      'implements src/lib.rs.Name.deserialize.NameVisitor -> external:serde.de.Visitor',
    ]);
  });
});

describe('inherits out of test code', () => {
  it('links a production subclass to inherited methods, but not a test class (file or name) to its base helpers', async () => {
    const edges = await edgesOf({
      'app/base.py': 'class Base:\n    def save(self):\n        pass\n    def check(self):\n        pass\n',
      'app/child.py': 'from app.base import Base\n\nclass Child(Base):\n    def check(self):\n        pass\n',
      'tests/test_child.py': 'from app.base import Base\n\nclass ChildCase(Base):\n    def check(self):\n        pass\n',
    });
    expect(edges).toContain('inherits app/child.py.Child -> app/base.py.Base.save');
    expect(edges).toContain('extends tests/test_child.py.ChildCase -> app/base.py.Base');
    // Overrides still link a test class's redefinitions to what they replace.
    expect(edges).toContain('overrides tests/test_child.py.ChildCase.check -> app/base.py.Base.check');
    expect(edges.filter((edge) => edge.startsWith('inherits tests/'))).toEqual([]);
  });
});
