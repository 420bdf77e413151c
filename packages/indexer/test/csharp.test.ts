import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { csharpLanguage } from '../src/languages/csharp.js';
import type { FileExtraction, ProjectLayout } from '../src/languages/types.js';
import { extractFile } from '../src/extract.js';
import { createParser, withTree } from '../src/parser.js';
import { referenceRow, symbolRow } from './helpers/extraction.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/csharp/', import.meta.url));
const SERVICE = 'src/Acme.Billing/InvoiceService.cs';
const VALIDATION = 'src/Acme.Billing/InvoiceService.Validation.cs';
const CONTRACTS = 'src/Acme.Billing/Contracts.cs';
const TESTS = 'tests/Acme.Billing.Tests/InvoiceServiceTests.cs';

let parser: Parser;
beforeAll(async () => {
  parser = await createParser(csharpLanguage.grammarFor('A.cs'));
});

function extract(path: string): FileExtraction {
  const source = readFileSync(FIXTURES + path, 'utf8');
  return withTree(parser, source, (tree) => csharpLanguage.extract(tree.rootNode, source, path));
}

const ALL_FILES = [SERVICE, VALIDATION, CONTRACTS, TESTS];

function fixtureLayout(): ProjectLayout {
  const byNamespace = new Map<string, string[]>();
  for (const path of ALL_FILES) {
    const { namespace } = extract(path);
    byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), path]);
  }
  return {
    hasFile: (path) => ALL_FILES.includes(path),
    filesInDirectory: (dir) => ALL_FILES.filter((p) => p.slice(0, Math.max(0, p.lastIndexOf('/'))) === dir),
    goModulePath: undefined,
    filesInNamespace: (namespace) => byNamespace.get(namespace) ?? [],
  };
}

describe('csharpLanguage: definitions', () => {
  it('extracts a class with constants, fields, events, properties, methods, local functions and nested types', () => {
    const { symbols } = extract(SERVICE);
    expect(symbols.map(symbolRow)).toEqual([
      // First base not named I<Upper> is the base class; the rest are interfaces.
      'class InvoiceService 13-56 exported ^-1 extends:ServiceBase implements:IInvoiceService @Service',
      'constant InvoiceService.MaxLines 16-16 exported ^0',
      'field InvoiceService._store 17-17 ^0 hints:IInvoiceStore value:IInvoiceStore',
      // An event of a BCL delegate type: no hint.
      'field InvoiceService.Issued 18-18 exported ^0',
      'constructor InvoiceService.InvoiceService 20-23 exported ^0 hints:IInvoiceStore',
      'property InvoiceService.Outstanding 26-26 exported ^0 hints:Money value:Money',
      // Task<Invoice?> and IEnumerable<Line> are unwrapped.
      'method InvoiceService.IssueAsync 28-39 exported ^0 hints:Customer,Line,Invoice overrides',
      'function InvoiceService.IssueAsync.Log 38-38 ^6 hints:Invoice',
      'method InvoiceService.Cancel 41-48 exported ^0 hints:Invoice',
      'method InvoiceService.CreateCalculator 50-50 ^0 hints:Calculator',
      'class InvoiceService.Calculator 52-55 exported ^0',
      'method InvoiceService.Calculator.Sum 54-54 exported ^10 hints:Line',
    ]);
  });

  it('produces symbol and reference records with exactly the contract fields', () => {
    const { symbols, references } = extract(SERVICE);
    expect(symbols[5]).toEqual({
      name: 'Outstanding',
      kind: 'property',
      scope: ['InvoiceService'],
      startLine: 26,
      endLine: 26,
      signature: 'public Money Outstanding',
      doc: 'Total of all open invoices.',
      isTest: false,
      parent: 0,
      exported: true,
      typeHints: [{ name: 'Money', qualifier: [] }],
      valueType: { name: 'Money', qualifier: [] },
    });
    expect(references[0]).toEqual({ from: 4, kind: 'call', name: 'ServiceBase', qualifier: ['base'], receiverType: { name: 'ServiceBase', qualifier: [] }, line: 20 });
  });

  it('strips XML doc tags and keeps declarations up to their bodies as signatures', () => {
    const { symbols } = extract(SERVICE);
    const byName = (name: string) => symbols.find((s) => s.name === name);
    expect(byName('InvoiceService')?.doc).toBe('Issues invoices and charges Customer accounts.');
    expect(byName('InvoiceService')?.signature).toBe('public partial class InvoiceService : ServiceBase, IInvoiceService');
    expect(byName('Outstanding')?.doc).toBe('Total of all open invoices.');
    expect(byName('Outstanding')?.signature).toBe('public Money Outstanding');
    expect(byName('IssueAsync')?.signature).toBe('public override async Task<Invoice?> IssueAsync(Customer customer, IEnumerable<Line> lines)');
    expect(byName('MaxLines')?.signature).toBe('public const int MaxLines = 100');
  });

  it('emits each part of a partial class from the file that declares it, in the same namespace', () => {
    const main = extract(SERVICE);
    const part = extract(VALIDATION);
    expect(part.symbols.map(symbolRow)).toEqual([
      'class InvoiceService 5-12 exported ^-1',
      'method InvoiceService.Validate 8-11 exported ^0 hints:Invoice',
    ]);
    expect(part.symbols[1]?.doc).toBe('Checks an invoice before it is issued.');
    // Block-scoped and file-scoped namespace declarations give the same namespace.
    expect([main.namespace, part.namespace]).toEqual(['Acme.Billing', 'Acme.Billing']);
  });

  it('joins nested namespaces and extracts interfaces, enums, delegates, records and structs', () => {
    const { symbols, references, namespace } = extract(CONTRACTS);
    expect(namespace).toBe('Acme.Billing.Contracts');
    expect(symbols.map(symbolRow)).toEqual([
      // An interface's bases are all `extends`.
      'interface IInvoiceService 6-9 exported ^-1 extends:IDisposable',
      'method IInvoiceService.IssueAsync 8-8 exported ^0 hints:Customer,Line,Invoice',
      'enum InvoiceState 11-15 exported ^-1',
      'constant InvoiceState.Open 13-13 exported ^2 value:InvoiceState',
      'constant InvoiceState.Paid 14-14 exported ^2 value:InvoiceState',
      'type_alias InvoiceIssued 17-17 exported ^-1 hints:Invoice',
      'class InvoiceDto 19-19 exported ^-1',
      'property InvoiceDto.Id 19-19 exported ^6',
      'property InvoiceDto.Total 19-19 exported ^6 hints:Money value:Money',
      // A struct's bases are interfaces.
      'struct Money 21-26 exported ^-1 implements:IEquatable',
      'field Money.Amount 23-23 exported ^9',
      'method Money.Add 25-25 exported ^9 hints:Money',
    ]);
    expect(references.map(referenceRow)).toEqual(['9 type Money @21']);
  });

  it('marks test files and [Fact]/[Theory] methods as tests', () => {
    const { symbols } = extract(TESTS);
    expect(symbols.map(symbolRow)).toEqual([
      'class InvoiceServiceTests 6-20 exported test ^-1',
      'method InvoiceServiceTests.Cancel_rejects_paid_invoices 8-13 exported test ^0 @Fact',
      'method InvoiceServiceTests.Validate_accepts 15-17 exported test ^0 @Theory @InlineData',
      'method InvoiceServiceTests.Paid 19-19 test ^0 hints:Invoice',
    ]);
  });
});

describe('csharpLanguage: references', () => {
  it('records calls, constructions, member accesses and raises with receiver types from declarations', () => {
    const { references } = extract(SERVICE);
    expect(references.map(referenceRow)).toEqual([
      '4 call base.ServiceBase : ServiceBase @20',
      '4 field _store : InvoiceService @22',
      '6 new Invoice @30',
      '6 type Calculator @31',
      '6 call CreateCalculator @31',
      '6 field invoice.Total : Invoice @32',
      '6 call calculator.Sum : Calculator @32',
      '6 call _store.SaveAsync : IInvoiceStore @33',
      '6 field _store : InvoiceService @33',
      '6 field this.Outstanding : InvoiceService @34',
      // From `using static Acme.Billing.Contracts.Money`: bare calls are looked up lexically.
      '6 call Add @34',
      // A local function.
      '6 call Log @35',
      '7 call Json.SerializeObject @38',
      '8 field invoice.State : Invoice @43',
      '8 value InvoiceState.Paid @43',
      '8 raise InvoiceException @45',
      '8 call base.Cancel : ServiceBase @47',
      // `new TaxCalculator { Rate = 0.2m }`
      '9 new TaxCalculator @50',
      '9 field Rate : TaxCalculator @50',
    ]);
  });

  it('cannot type members declared in another part of a partial class', () => {
    expect(extract(VALIDATION).references.map(referenceRow)).toEqual([
      '1 field invoice.Lines.Count @10',
      '1 field invoice.Lines : Invoice @10',
      '1 call _store.Exists @10',
      '1 field invoice.Id : Invoice @10',
    ]);
  });

  it('types `var` locals from constructions and object initialisers from the created type', () => {
    expect(extract(TESTS).references.map(referenceRow)).toEqual([
      '1 new InvoiceService @11',
      '1 new FakeStore @11',
      '1 call Assert.Throws @12',
      '1 type InvoiceException @12',
      '1 call service.Cancel : InvoiceService @12',
      '1 call Paid @12',
      '2 call Assert.True @17',
      '3 new Invoice @19',
      '3 field State : Invoice @19',
      '3 value InvoiceState.Paid @19',
    ]);
  });
});

describe('csharpLanguage: usings', () => {
  it('reads namespace, alias and static usings', () => {
    const { imports, syntaxErrors } = extract(SERVICE);
    expect(syntaxErrors).toBe(0);
    expect(imports).toEqual([
      { source: 'System', names: [{ imported: '*', local: '*' }], line: 1 },
      { source: 'System.Collections.Generic', names: [{ imported: '*', local: '*' }], line: 2 },
      { source: 'System.Threading.Tasks', names: [{ imported: '*', local: '*' }], line: 3 },
      { source: 'Acme.Billing.Contracts', names: [{ imported: '*', local: '*' }], line: 4 },
      { source: 'Newtonsoft.Json.JsonConvert', names: [{ imported: 'JsonConvert', local: 'Json' }], line: 5 },
      { source: 'Acme.Billing.Contracts.Money', names: [{ imported: '*', local: '*' }], line: 6 },
    ]);
    expect(extract(VALIDATION).imports).toEqual([{ source: 'Acme.Billing.Contracts', names: [{ imported: '*', local: '*' }], line: 3 }]);
  });

  it('resolves usings to the files declaring the namespace, BCL namespaces to dotnet, others to their root', () => {
    const layout = fixtureLayout();
    const { imports } = extract(SERVICE);
    expect(imports.map((decl) => csharpLanguage.resolveImport(decl, SERVICE, layout))).toEqual([
      { files: [], external: 'dotnet' },
      { files: [], external: 'dotnet' },
      { files: [], external: 'dotnet' },
      { files: [CONTRACTS] },
      { files: [], external: 'Newtonsoft' },
      // `using static Acme.Billing.Contracts.Money`: a type of a declared namespace, without a
      // file of its own name: the namespace's files.
      { files: [CONTRACTS] },
    ]);
    const resolve = (source: string, imported: string, local = imported) =>
      csharpLanguage.resolveImport({ source, names: [{ imported, local }], line: 1 }, SERVICE, layout);
    expect(resolve('Acme.Billing', '*')).toEqual({ files: [SERVICE, VALIDATION] });
    // An alias to a type: the file named after it, else the namespace's files.
    expect(resolve('Acme.Billing.InvoiceService', 'InvoiceService', 'Svc')).toEqual({ files: [SERVICE] });
    expect(resolve('Acme.Billing.Contracts.InvoiceDto', 'InvoiceDto', 'Dto')).toEqual({ files: [CONTRACTS] });
    expect(resolve('Microsoft.Extensions.Logging', '*')).toEqual({ files: [], external: 'dotnet' });
    expect(resolve('Serilog.Events', '*')).toEqual({ files: [], external: 'Serilog' });
  });
});

describe('csharpLanguage: preprocessor directives', () => {
  const STARTUP = 'src/Acme.Web/Startup.cs';
  const startupPath = fileURLToPath(new URL(`./fixtures/csharp-directives/${STARTUP}`, import.meta.url));

  /** Through the indexer's own extraction, which hands the grammar `parseText`'s rewrite. */
  async function extractStartup(): Promise<FileExtraction> {
    const result = await extractFile({ path: STARTUP, absolutePath: startupPath, language: 'csharp', timeoutMs: 10_000 });
    return result.extraction!;
  }

  it('parses the first branch of each #if, so a directive splitting a parameter list or an `if (…) {` breaks nothing', async () => {
    const { symbols, references, imports, syntaxErrors } = await extractStartup();
    expect(symbols.map(symbolRow)).toEqual([
      'class Startup 9-53 exported ^-1',
      // `#if NET6_0` inside the parameter list: the first branch's parameter type, no `NET6_0`.
      'method Startup.Configure 11-17 exported ^0 hints:IApplicationBuilder,IWebHostEnvironment',
      // `if (…) {` written once per branch: the method keeps its body and the class its members.
      'method Startup.Register 19-29 exported ^0 hints:IServiceCollection',
      // `#if DEBUG` / `#elif TRACE` / `#else`: only the first branch.
      'method Startup.Diagnose 33-33 exported ^0',
      // `#if false` is dead code: its `#else` is the branch kept.
      'method Startup.Enabled 43-43 exported ^0',
      'method Startup.Helper 47-49 ^0',
      'method Startup.Audit 51-51 ^0 hints:IServiceCollection',
    ]);
    expect(references.map(referenceRow)).toEqual([
      '1 call Helper @17',
      '2 raise MissingServicesException @26',
      '2 call Audit @28',
      '3 call Helper @33',
      '4 call Helper @43',
    ]);
    expect(imports.map((decl) => `${decl.line} ${decl.source}`)).toEqual(['1 Microsoft.AspNetCore.Builder', '3 Microsoft.AspNetCore.Hosting']);
    expect(syntaxErrors).toBe(0);
  });

  it('reads names, signatures and docs from the file itself', async () => {
    const { symbols } = await extractStartup();
    const byName = (name: string) => symbols.find((s) => s.name === name);
    expect(byName('Configure')?.signature).toBe(
      'public void Configure(IApplicationBuilder app, #if NET6_0 IWebHostEnvironment env, #else IHostingEnvironment env, #endif ILogger logger)',
    );
    expect(byName('Startup')?.doc).toBe('Wires the request pipeline.');
    // A doc comment above the `#if` belongs to the member inside it.
    expect(byName('Diagnose')?.doc).toBe('Logs what runs.');
  });

  it('hands the grammar a rewrite of the same length and lines, with directives and later branches blanked', () => {
    const source = readFileSync(startupPath, 'utf8');
    const parsed = csharpLanguage.parseText!(source);
    expect(parsed.length).toBe(source.length);
    const [before, after] = [source.split('\n'), parsed.split('\n')];
    expect(after.length).toBe(before.length);
    const kept = (row: number) => after[row - 1] === before[row - 1];
    const blank = (row: number) => after[row - 1]!.trim() === '' && after[row - 1]!.length === before[row - 1]!.length;
    for (const row of [2, 4, 12, 14, 15, 16, 21, 23, 24, 25, 32, 34, 35, 36, 37, 38, 40, 41, 42, 44, 46, 52]) expect(blank(row), `line ${row}`).toBe(true);
    for (const row of [1, 3, 11, 13, 17, 22, 26, 33, 43, 47, 51]) expect(kept(row), `line ${row}`).toBe(true);
    // A file without directives is handed over as it is.
    const plain = 'class A { void B() { } }\n';
    expect(csharpLanguage.parseText!(plain)).toBe(plain);
  });
});

describe('csharpLanguage: files', () => {
  it('recognises test files by name and project directory', () => {
    expect(csharpLanguage.isTestFile('tests/Acme/AnyFile.cs')).toBe(true);
    expect(csharpLanguage.isTestFile('test/Ocelot.UnitTests/Routing/RouteTests.cs')).toBe(true);
    expect(csharpLanguage.isTestFile('src/Acme.Billing.Tests/Helpers.cs')).toBe(true);
    expect(csharpLanguage.isTestFile('src/Acme/InvoiceTests.cs')).toBe(true);
    expect(csharpLanguage.isTestFile('src/Acme/InvoiceTest.cs')).toBe(true);
    expect(csharpLanguage.isTestFile('src/Acme/Invoice.cs')).toBe(false);
    expect(csharpLanguage.isTestFile('src/Acme/Latest.cs')).toBe(false);
  });

  it('declares itself for .cs files with the c_sharp grammar', () => {
    expect(csharpLanguage.id).toBe('csharp');
    expect(csharpLanguage.extensions).toEqual(['.cs']);
    expect(csharpLanguage.grammarFor('A.cs')).toBe('c_sharp');
    expect(csharpLanguage.superNames).toEqual(['base']);
  });
});
