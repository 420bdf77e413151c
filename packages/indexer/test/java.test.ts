import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { javaLanguage } from '../src/languages/java.js';
import type { FileExtraction, ProjectLayout } from '../src/languages/types.js';
import { createParser, withTree } from '../src/parser.js';
import { referenceRow, symbolRow } from './helpers/extraction.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/java/', import.meta.url));
const MAIN = 'src/main/java/com/acme/shop/';

let parser: Parser;
beforeAll(async () => {
  parser = await createParser(javaLanguage.grammarFor('A.java'));
});

/** Extract a fixture file, named by its path inside the fixture tree (the "repository"). */
function extract(path: string): FileExtraction {
  const source = readFileSync(FIXTURES + path, 'utf8');
  return withTree(parser, source, (tree) => javaLanguage.extract(tree.rootNode, source, path));
}

/** A layout over the whole fixture tree, with namespaces taken from real extractions. */
function fixtureLayout(paths: readonly string[]): ProjectLayout {
  const byNamespace = new Map<string, string[]>();
  for (const path of paths) {
    const { namespace } = extract(path);
    byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), path]);
  }
  const files = new Set(paths);
  return {
    hasFile: (path) => files.has(path),
    filesInDirectory: (dir) => paths.filter((p) => p.slice(0, Math.max(0, p.lastIndexOf('/'))) === dir),
    goModulePath: undefined,
    filesInNamespace: (namespace) => byNamespace.get(namespace) ?? [],
    filesEndingWith: (suffix) => paths.filter((p) => p === suffix || p.endsWith('/' + suffix)),
  };
}

const ALL_FILES = [
  `${MAIN}OrderService.java`,
  `${MAIN}Repository.java`,
  `${MAIN}model/Order.java`,
  `${MAIN}model/Status.java`,
  `${MAIN}util/Strings.java`,
  'src/test/java/com/acme/shop/OrderServiceTest.java',
];

describe('javaLanguage: definitions', () => {
  it('extracts a class with fields, overloads, inner, local and anonymous classes, scoped by their enclosing symbols', () => {
    const { symbols } = extract(`${MAIN}OrderService.java`);
    expect(symbols.map(symbolRow)).toEqual([
      'class OrderService 14-79 exported ^-1 extends:BaseService implements:Repository @Audited',
      'constant OrderService.MAX_ITEMS 16-16 ^0',
      'field OrderService.repository 17-17 ^0 hints:OrderRepository value:OrderRepository',
      'field OrderService.log 18-18 ^0 hints:Logger value:Logger',
      'constructor OrderService.OrderService 20-23 exported ^0 hints:OrderRepository',
      'method OrderService.save 25-35 exported ^0 hints:Order overrides',
      // The two `find` overloads are one symbol spanning both.
      'method OrderService.find 37-43 exported ^0 hints:Order',
      'method OrderService.sorted 45-55 ^0 hints:Order',
      'class OrderService.sorted.anon$Comparator 46-51 ^7 extends:Comparator',
      'method OrderService.sorted.anon$Comparator.compare 47-50 exported ^8 hints:Order overrides',
      'method OrderService.count 57-65 ^0',
      'class OrderService.count.Counter 58-60 ^10',
      'field OrderService.count.Counter.total 59-59 ^11',
      'class OrderService.Summary 68-78 exported ^0',
      'field OrderService.Summary.order 69-69 ^13 hints:Order value:Order',
      'constructor OrderService.Summary.Summary 71-73 ^13 hints:Order',
      'method OrderService.Summary.describe 75-77 exported ^13',
    ]);
  });

  it('keeps declaration lines as signatures and Javadoc without its markers', () => {
    const { symbols } = extract(`${MAIN}OrderService.java`);
    const byName = (name: string) => symbols.find((s) => s.name === name);
    expect(byName('OrderService')?.signature).toBe('public class OrderService extends BaseService implements Repository<Order>');
    expect(byName('OrderService')?.doc).toBe('Places and looks up orders.\n<p>Thread-safe.');
    expect(byName('save')?.signature).toBe('public void save(Order order) throws OrderException');
    expect(byName('save')?.doc).toBe('');
    expect(byName('anon$Comparator')?.signature).toBe('new Comparator<Order>()');
    expect(byName('repository')?.signature).toBe('private final OrderRepository repository');
    expect(symbols.filter((s) => s.name === 'Summary').map((s) => [s.kind, s.doc])).toEqual([
      ['class', 'A read-only view of an order.'],
      ['constructor', ''],
    ]);
  });

  it('produces symbol records with exactly the contract fields', () => {
    const { symbols } = extract(`${MAIN}OrderService.java`);
    expect(symbols[5]).toEqual({
      name: 'save',
      kind: 'method',
      scope: ['OrderService'],
      startLine: 25,
      endLine: 35,
      signature: 'public void save(Order order) throws OrderException',
      doc: '',
      isTest: false,
      parent: 0,
      exported: true,
      typeHints: [{ name: 'Order', qualifier: [] }],
      overrides: true,
    });
    expect(symbols[8]).toEqual({
      name: 'anon$Comparator',
      kind: 'class',
      scope: ['OrderService', 'sorted'],
      startLine: 46,
      endLine: 51,
      signature: 'new Comparator<Order>()',
      doc: '',
      isTest: false,
      parent: 7,
      exported: false,
      supertypes: [{ name: 'Comparator', qualifier: [], relation: 'extends' }],
    });
  });

  it('treats interface members as public, interface fields as constants and annotation types as interfaces', () => {
    const { symbols } = extract(`${MAIN}Repository.java`);
    expect(symbols.map(symbolRow)).toEqual([
      'interface Repository 4-12 exported ^-1',
      'constant Repository.PAGE_SIZE 5-5 exported ^0',
      'method Repository.save 7-7 exported ^0',
      'method Repository.exists 9-11 exported ^0',
      'interface Audited 15-17 ^-1',
      'method Audited.value 16-16 exported ^4',
    ]);
    expect(symbols[4]?.doc).toBe('Marks classes whose changes are audited.');
  });

  it('gives records their components as fields and a compact constructor', () => {
    const { symbols, references } = extract(`${MAIN}model/Order.java`);
    expect(symbols.map(symbolRow)).toEqual([
      'class Order 6-19 exported ^-1 implements:Priced',
      'field Order.id 6-6 exported ^0',
      'field Order.items 6-6 exported ^0 hints:LineItem value:List',
      'constructor Order.Order 7-11 exported ^0',
      'method Order.total 13-16 exported ^0 overrides',
      'method Order.validate 18-18 exported ^0',
    ]);
    // The record's Javadoc is not repeated on its components.
    expect(symbols.map((s) => s.doc)).toEqual(['An order: an id and its line items.', '', '', '', '', '']);
    // `throw new IllegalArgumentException(...)` is a java.lang exception: no reference.
    expect(references.map(referenceRow)).toEqual([
      '3 field id : Order @8',
      '4 call ?.sum @15',
      '4 call ?.mapToLong @15',
      '4 call items.stream : List @15',
      '4 field items : Order @15',
      '4 call LineItem.price @15',
    ]);
  });

  it('makes enum constants constants and scopes a constant body under the constant', () => {
    const { symbols } = extract(`${MAIN}model/Status.java`);
    expect(symbols.map(symbolRow)).toEqual([
      'enum Status 3-15 exported ^-1',
      'constant Status.NEW 4-4 exported ^0 value:Status',
      'constant Status.PAID 5-10 exported ^0 value:Status',
      'method Status.PAID.isFinal 6-9 ^2 overrides',
      'method Status.isFinal 12-14 ^0',
    ]);
  });

  it('marks everything in a test file as test code and keeps @Test as a decorator', () => {
    const { symbols } = extract('src/test/java/com/acme/shop/OrderServiceTest.java');
    expect(symbols.map(symbolRow)).toEqual([
      'class OrderServiceTest 7-18 test ^-1',
      'field OrderServiceTest.service 8-8 test ^0 hints:OrderService value:OrderService',
      'method OrderServiceTest.findsSavedOrders 10-13 test ^0 @Test',
      'method OrderServiceTest.summary 15-17 test ^0 hints:OrderService.Summary',
    ]);
  });
});

describe('javaLanguage: references', () => {
  it('records calls, constructions, field and type uses with receiver types from declarations', () => {
    const { references } = extract(`${MAIN}OrderService.java`);
    expect(references.map(referenceRow)).toEqual([
      // `implements Repository<Order>`: the generic argument is a type use of the class.
      '0 type Order @15',
      '4 call super.BaseService : BaseService @21',
      '4 field this.repository : OrderService @22',
      '5 raise OrderException @26',
      // A bare call: implicit `this`, an outer class or (here) a static import.
      '5 call isBlank @27',
      '5 call order.id : Order @27',
      '5 new Validator @30',
      // `var validator = new Validator()`
      '5 call validator.check : Validator @31',
      '5 call this.repository.store : OrderRepository @32',
      '5 field this.repository : OrderService @32',
      '5 call repository.flush : OrderRepository @33',
      '5 field repository : OrderService @33',
      '5 call log.info : Logger @34',
      '5 field log : OrderService @34',
      '5 call Status.PAID.name @34',
      '5 value Status.PAID @34',
      '6 call repository.load : OrderRepository @38',
      '6 field repository : OrderService @38',
      // `Long.toString(...)` is java.lang: left out.
      '6 call find @42',
      '7 type Comparator @46',
      '7 type Order @46',
      '7 new Comparator @46',
      // `?`: a receiver with no name (here the result of `a.id()`).
      '9 call ?.compareTo @49',
      '9 call a.id : Order @49',
      '9 call b.id : Order @49',
      '7 call orders.sort : List @52',
      '7 call orders.forEach : List @53',
      // `Order::validate`
      '7 call Order.validate @53',
      // `value instanceof Order order`, then `((Order) value).items()`
      '10 type Order @61',
      '10 call ?.size @62',
      '10 call ?.items : Order @62',
      '10 field MAX_ITEMS : OrderService @62',
      '10 field ?.total : Counter @64',
      '10 new Counter @64',
      '15 field this.order : OrderService.Summary @72',
      '16 call order.id : Order @76',
      '16 field order : OrderService.Summary @76',
    ]);
  });

  it('produces reference records with exactly the contract fields', () => {
    const { references } = extract(`${MAIN}OrderService.java`);
    expect(references.slice(1, 3)).toEqual([
      { from: 4, kind: 'call', name: 'BaseService', qualifier: ['super'], receiverType: { name: 'BaseService', qualifier: [] }, line: 21 },
      { from: 4, kind: 'field', name: 'repository', qualifier: ['this'], receiverType: { name: 'OrderService', qualifier: [] }, line: 22 },
    ]);
    expect(references[4]).toEqual({ from: 5, kind: 'call', name: 'isBlank', qualifier: [], line: 27 });
  });

  it('attributes uses to the innermost symbol: field initialisers and test methods', () => {
    const { references } = extract('src/test/java/com/acme/shop/OrderServiceTest.java');
    expect(references.map(referenceRow)).toEqual([
      '1 new OrderService @8',
      '1 new InMemoryOrders @8',
      '2 call assertEquals @12',
      '2 call ?.size @12',
      '2 call ?.items @12',
      '2 call service.find : OrderService @12',
      '2 field service : OrderServiceTest @12',
    ]);
  });

  it('leaves out uses of java.lang-typed variables: nothing on them is repository code', () => {
    // `value.trim().isEmpty()` with `String value`: only the chained call on an unnamed receiver remains.
    expect(extract(`${MAIN}util/Strings.java`).references.map(referenceRow)).toEqual(['2 call ?.isEmpty @7']);
  });

  it('gives super its superclass as receiver type only for the member right after it, as C# does for base', () => {
    const source = readFileSync(fileURLToPath(new URL('./fixtures/java-chains/AuditedService.java', import.meta.url)), 'utf8');
    const { references } = withTree(parser, source, (tree) => javaLanguage.extract(tree.rootNode, source, 'AuditedService.java'));
    expect(references.map(referenceRow)).toEqual([
      // `info` is called on the field's type, which is not known here: not on BaseAudit.
      '1 call super.log.info @5',
      '1 field super.log : BaseAudit @5',
    ]);
  });

  it('records declared exceptions as raises', () => {
    expect(extract(`${MAIN}Repository.java`).references.map(referenceRow)).toEqual(['2 raise OrderException @7']);
  });
});

describe('javaLanguage: imports and namespace', () => {
  it('reads the package and every import form', () => {
    const { imports, namespace, syntaxErrors } = extract(`${MAIN}OrderService.java`);
    expect(namespace).toBe('com.acme.shop');
    expect(syntaxErrors).toBe(0);
    expect(imports).toEqual([
      { source: 'com.acme.shop.model.Order', names: [{ imported: 'Order', local: 'Order' }], line: 3 },
      { source: 'com.acme.shop.model', names: [{ imported: '*', local: '*' }], line: 4 },
      { source: 'com.acme.shop.util.Strings', names: [{ imported: 'isBlank', local: 'isBlank' }], line: 5 },
      { source: 'java.util.Comparator', names: [{ imported: 'Comparator', local: 'Comparator' }], line: 6 },
      { source: 'java.util.List', names: [{ imported: 'List', local: 'List' }], line: 7 },
      { source: 'org.slf4j.Logger', names: [{ imported: 'Logger', local: 'Logger' }], line: 8 },
    ]);
  });

  it('resolves imports to the declaring files, JDK packages to java, others to their first two segments', () => {
    const layout = fixtureLayout(ALL_FILES);
    const from = `${MAIN}OrderService.java`;
    const { imports } = extract(from);
    expect(imports.map((decl) => javaLanguage.resolveImport(decl, from, layout))).toEqual([
      { files: [`${MAIN}model/Order.java`] },
      { files: [`${MAIN}model/Order.java`, `${MAIN}model/Status.java`] },
      { files: [`${MAIN}util/Strings.java`] },
      { files: [], external: 'java' },
      { files: [], external: 'java' },
      { files: [], external: 'org.slf4j' },
    ]);
    const resolve = (source: string, imported: string) => javaLanguage.resolveImport({ source, names: [{ imported, local: imported }], line: 1 }, from, layout);
    // A nested class lives in its top-level class's file; a static wildcard names a class.
    expect(resolve('com.acme.shop.OrderService.Summary', 'Summary')).toEqual({ files: [`${MAIN}OrderService.java`] });
    expect(resolve('com.acme.shop.util.Strings', '*')).toEqual({ files: [`${MAIN}util/Strings.java`] });
    // A type without a file of its own name: the package's files.
    expect(resolve('com.acme.shop.Audited', 'Audited')).toEqual({
      files: [`${MAIN}OrderService.java`, `${MAIN}Repository.java`, 'src/test/java/com/acme/shop/OrderServiceTest.java'],
    });
    expect(resolve('javax.inject.Inject', 'Inject')).toEqual({ files: [], external: 'java' });
  });
});

describe('javaLanguage: files', () => {
  it('counts syntax errors and still extracts what parsed', () => {
    const { symbols, syntaxErrors, namespace } = extract('broken/Broken.java');
    expect(syntaxErrors).toBe(2);
    expect(namespace).toBe('com.acme.broken');
    expect(symbols.map((s) => s.name)).toEqual(['Broken', 'ok', 'bad']);
  });

  it('recognises test files by directory and name', () => {
    expect(javaLanguage.isTestFile('src/test/java/a/B.java')).toBe(true);
    expect(javaLanguage.isTestFile('src/main/java/a/OrderTest.java')).toBe(true);
    expect(javaLanguage.isTestFile('src/main/java/a/OrderTests.java')).toBe(true);
    expect(javaLanguage.isTestFile('src/main/java/a/OrderIT.java')).toBe(true);
    expect(javaLanguage.isTestFile('src/main/java/a/Order.java')).toBe(false);
    expect(javaLanguage.isTestFile('src/main/java/a/Contest.java')).toBe(false);
  });

  it('declares itself for .java files', () => {
    expect(javaLanguage.id).toBe('java');
    expect(javaLanguage.extensions).toEqual(['.java']);
    expect(javaLanguage.grammarFor('A.java')).toBe('java');
    expect(javaLanguage.selfNames).toEqual(['this']);
    expect(javaLanguage.superNames).toEqual(['super']);
  });
});
