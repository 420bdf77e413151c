/**
 * End-to-end graph of the C# fixture: extraction by csharpLanguage, resolution and derived
 * passes by the core, stored in the in-memory store. The repository's own subgraph is checked
 * exactly; placeholders outside it (BCL, NuGet packages) only where they matter.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { csharpLanguage } from '../src/languages/csharp.js';
import { repoGraph as indexedGraph } from './helpers/fixture-graph.js';
import type { RepoGraph } from './helpers/fixture-graph.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'csharp');
const S = 'src/Acme.Billing/';
const T = 'tests/Acme.Billing.Tests/InvoiceServiceTests.cs.InvoiceServiceTests';

function repoGraph(): Promise<RepoGraph> {
  return indexedGraph(ROOT, csharpLanguage);
}

// Reviewed by hand.
const NODES = [
  `class ${S}Contracts.cs.InvoiceDto`,
  `class ${S}Invoice.cs.Invoice`,
  `class ${S}Invoice.cs.InvoiceException`,
  // A partial class: one node per file that declares a part.
  `class ${S}InvoiceService.Validation.cs.InvoiceService`,
  `class ${S}InvoiceService.cs.InvoiceService`,
  `class ${S}InvoiceService.cs.InvoiceService.Calculator`,
  `class ${S}ServiceAttribute.cs.ServiceAttribute`,
  `class ${S}ServiceBase.cs.ServiceBase`,
  `class ${T}`,
  `constant ${S}Contracts.cs.InvoiceState.Open`,
  `constant ${S}Contracts.cs.InvoiceState.Paid`,
  `constant ${S}InvoiceService.cs.InvoiceService.MaxLines`,
  `constructor ${S}Invoice.cs.Invoice.Invoice`,
  `constructor ${S}Invoice.cs.InvoiceException.InvoiceException`,
  `constructor ${S}InvoiceService.cs.InvoiceService.InvoiceService`,
  `constructor ${S}ServiceBase.cs.ServiceBase.ServiceBase`,
  `enum ${S}Contracts.cs.InvoiceState`,
  `field ${S}Contracts.cs.Money.Amount`,
  `field ${S}InvoiceService.cs.InvoiceService.Issued`,
  `field ${S}InvoiceService.cs.InvoiceService._store`,
  `file ${S}Contracts.cs`,
  `file ${S}Invoice.cs`,
  `file ${S}InvoiceService.Validation.cs`,
  `file ${S}InvoiceService.cs`,
  `file ${S}ServiceAttribute.cs`,
  `file ${S}ServiceBase.cs`,
  'file tests/Acme.Billing.Tests/InvoiceServiceTests.cs',
  `function ${S}InvoiceService.cs.InvoiceService.IssueAsync.Log`,
  `interface ${S}Contracts.cs.IInvoiceService`,
  `interface ${S}Invoice.cs.IInvoiceStore`,
  `method ${S}Contracts.cs.IInvoiceService.IssueAsync`,
  `method ${S}Contracts.cs.Money.Add`,
  `method ${S}Invoice.cs.IInvoiceStore.Exists`,
  `method ${S}Invoice.cs.IInvoiceStore.SaveAsync`,
  `method ${S}InvoiceService.Validation.cs.InvoiceService.Validate`,
  `method ${S}InvoiceService.cs.InvoiceService.Calculator.Sum`,
  `method ${S}InvoiceService.cs.InvoiceService.Cancel`,
  `method ${S}InvoiceService.cs.InvoiceService.CreateCalculator`,
  `method ${S}InvoiceService.cs.InvoiceService.IssueAsync`,
  `method ${S}ServiceBase.cs.ServiceBase.Cancel`,
  `method ${T}.Cancel_rejects_paid_invoices`,
  `method ${T}.Paid`,
  `method ${T}.Validate_accepts`,
  `property ${S}Contracts.cs.InvoiceDto.Id`,
  `property ${S}Contracts.cs.InvoiceDto.Total`,
  `property ${S}Invoice.cs.Invoice.Id`,
  `property ${S}Invoice.cs.Invoice.Lines`,
  `property ${S}Invoice.cs.Invoice.State`,
  `property ${S}Invoice.cs.Invoice.Total`,
  `property ${S}InvoiceService.cs.InvoiceService.Outstanding`,
  `struct ${S}Contracts.cs.Money`,
  `type_alias ${S}Contracts.cs.InvoiceIssued`,
];

const SERVICE = `${S}InvoiceService.cs.InvoiceService`;
const PART = `${S}InvoiceService.Validation.cs.InvoiceService`;
const INVOICE = `${S}Invoice.cs.Invoice`;
const STORE = `${S}Invoice.cs.IInvoiceStore`;

// Reviewed by hand: edges whose both ends are in the repository, except contains/member_of.
// Lines marked "partial" rely on the parts of `partial class InvoiceService` (one node per
// file) being one type for resolution: `new InvoiceService(...)` finds the constructor and
// `service.Cancel` the method in InvoiceService.cs, though the first part by path (the one
// `using Acme.Billing;` finds first) is InvoiceService.Validation.cs.
const EDGES: Record<string, string[]> = {
  accesses_field: [
    // The other part of the partial class reaches Invoice through its parameter type.
    `${PART}.Validate -> ${INVOICE}.Id`,
    `${PART}.Validate -> ${INVOICE}.Lines`,
    `${SERVICE}.Cancel -> ${INVOICE}.State`,
    `${SERVICE}.InvoiceService -> ${SERVICE}._store`,
    `${SERVICE}.IssueAsync -> ${INVOICE}.Total`,
    `${SERVICE}.IssueAsync -> ${SERVICE}.Outstanding`,
    `${SERVICE}.IssueAsync -> ${SERVICE}._store`,
  ],
  calls: [
    `${PART}.Validate -> ${STORE}.Exists`,
    // `base.Cancel(invoice)`
    `${SERVICE}.Cancel -> ${S}ServiceBase.cs.ServiceBase.Cancel`,
    // `: base(store)`
    `${SERVICE}.InvoiceService -> ${S}ServiceBase.cs.ServiceBase.ServiceBase`,
    // `Add(...)` through `using static Acme.Billing.Contracts.Money;`
    `${SERVICE}.IssueAsync -> ${S}Contracts.cs.Money.Add`,
    // `await _store.SaveAsync(invoice)`: the field's declared interface
    `${SERVICE}.IssueAsync -> ${STORE}.SaveAsync`,
    `${SERVICE}.IssueAsync -> ${INVOICE}.Invoice`,
    // `Calculator calculator = CreateCalculator(); calculator.Sum(lines)`
    `${SERVICE}.IssueAsync -> ${SERVICE}.Calculator.Sum`,
    `${SERVICE}.IssueAsync -> ${SERVICE}.CreateCalculator`,
    `${SERVICE}.IssueAsync -> ${SERVICE}.IssueAsync.Log`,
    // partial
    `${T}.Cancel_rejects_paid_invoices -> ${SERVICE}.Cancel`,
    // partial
    `${T}.Cancel_rejects_paid_invoices -> ${SERVICE}.InvoiceService`,
    `${T}.Cancel_rejects_paid_invoices -> ${T}.Paid`,
    `${T}.Paid -> ${INVOICE}.Invoice`,
  ],
  // partial
  co_tested_with: [
    `${SERVICE}.Cancel -> ${INVOICE}.Invoice`,
    `${SERVICE}.InvoiceService -> ${INVOICE}.Invoice`,
    `${SERVICE}.InvoiceService -> ${SERVICE}.Cancel`,
  ],
  // `[Service]` is `ServiceAttribute`
  decorates: [`${S}ServiceAttribute.cs.ServiceAttribute -> ${SERVICE}`],
  extends: [`${SERVICE} -> ${S}ServiceBase.cs.ServiceBase`],
  implements: [`${SERVICE} -> ${S}Contracts.cs.IInvoiceService`],
  imports: [
    `${S}Invoice.cs -> ${S}Contracts.cs`,
    `${S}InvoiceService.Validation.cs -> ${S}Contracts.cs`,
    `${S}InvoiceService.cs -> ${S}Contracts.cs`,
    // `using Acme.Billing;`: every file of the namespace
    `tests/Acme.Billing.Tests/InvoiceServiceTests.cs -> ${S}Invoice.cs`,
    `tests/Acme.Billing.Tests/InvoiceServiceTests.cs -> ${S}InvoiceService.Validation.cs`,
    `tests/Acme.Billing.Tests/InvoiceServiceTests.cs -> ${S}InvoiceService.cs`,
    `tests/Acme.Billing.Tests/InvoiceServiceTests.cs -> ${S}ServiceAttribute.cs`,
    `tests/Acme.Billing.Tests/InvoiceServiceTests.cs -> ${S}ServiceBase.cs`,
  ],
  overrides: [`${SERVICE}.Cancel -> ${S}ServiceBase.cs.ServiceBase.Cancel`, `${SERVICE}.IssueAsync -> ${S}Contracts.cs.IInvoiceService.IssueAsync`],
  references: [
    `${SERVICE}.Cancel -> ${S}Contracts.cs.InvoiceState.Paid`,
    `${SERVICE}.IssueAsync -> ${SERVICE}.Calculator`,
    // `Assert.Throws<InvoiceException>(...)`
    `${T}.Cancel_rejects_paid_invoices -> ${S}Invoice.cs.InvoiceException`,
  ],
  // partial
  tested_by: [`${INVOICE}.Invoice -> ${T}.Paid`, `${SERVICE}.Cancel -> ${T}.Cancel_rejects_paid_invoices`, `${SERVICE}.InvoiceService -> ${T}.Cancel_rejects_paid_invoices`],
  // partial
  tests: [`${T}.Cancel_rejects_paid_invoices -> ${SERVICE}.Cancel`, `${T}.Cancel_rejects_paid_invoices -> ${SERVICE}.InvoiceService`, `${T}.Paid -> ${INVOICE}.Invoice`],
  throws: [`${SERVICE}.Cancel -> ${S}Invoice.cs.InvoiceException`],
  type_hint_of: [
    `${S}Contracts.cs.InvoiceDto.Total -> ${S}Contracts.cs.Money`,
    `${S}Contracts.cs.Money.Add -> ${S}Contracts.cs.Money`,
    `${STORE}.SaveAsync -> ${INVOICE}`,
    `${INVOICE}.State -> ${S}Contracts.cs.InvoiceState`,
    `${INVOICE}.Total -> ${S}Contracts.cs.Money`,
    `${PART}.Validate -> ${INVOICE}`,
    `${SERVICE}.Cancel -> ${INVOICE}`,
    `${SERVICE}.CreateCalculator -> ${SERVICE}.Calculator`,
    `${SERVICE}.InvoiceService -> ${STORE}`,
    `${SERVICE}.IssueAsync -> ${INVOICE}`,
    `${SERVICE}.IssueAsync.Log -> ${INVOICE}`,
    `${SERVICE}.Outstanding -> ${S}Contracts.cs.Money`,
    `${SERVICE}._store -> ${STORE}`,
    `${S}ServiceBase.cs.ServiceBase.Cancel -> ${INVOICE}`,
    `${S}ServiceBase.cs.ServiceBase.ServiceBase -> ${STORE}`,
    `${T}.Paid -> ${INVOICE}`,
  ],
};

describe('csharp fixture graph', () => {
  let graph: RepoGraph;

  beforeAll(async () => {
    graph = await repoGraph();
  });

  it('has exactly the expected repository nodes', () => {
    expect(graph.nodeLines).toEqual(NODES);
  });

  for (const [type, expected] of Object.entries(EDGES)) {
    it(`has exactly the expected ${type} edges inside the repository`, () => {
      expect(graph.edgeLines.get(type) ?? []).toEqual(expected);
    });
  }

  it('has no repository edge types beyond the expected ones and contains/member_of', () => {
    expect([...graph.edgeLines.keys()].sort()).toEqual([...Object.keys(EDGES), 'contains', 'member_of'].sort());
  });

  it('makes every definition a member of exactly one container, mirrored by contains', () => {
    const contains = new Set(graph.edgeLines.get('contains'));
    const memberOf = graph.edgeLines.get('member_of') ?? [];
    expect(memberOf).toHaveLength(graph.nodes.filter((node) => node.kind !== 'file' && !node.external).length);
    for (const line of memberOf) {
      const [child, parent] = line.split(' -> ');
      expect(contains.has(`${parent} -> ${child}`)).toBe(true);
    }
  });

  it('points BCL and package usings at external packages, and attributes at external decorators', () => {
    const lines = graph.edges.map((edge) => `${edge.type} ${graph.qn.get(edge.source)} -> ${graph.qn.get(edge.target)}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        `imports ${S}InvoiceService.cs -> external:dotnet`,
        `imports ${S}InvoiceService.cs -> external:Newtonsoft`,
        'imports tests/Acme.Billing.Tests/InvoiceServiceTests.cs -> external:Xunit',
        `extends ${S}Invoice.cs.InvoiceException -> external:Exception`,
        `decorates external:Fact -> ${T}.Cancel_rejects_paid_invoices`,
      ]),
    );
  });

  it('resolves members across the parts of a partial class, and names aliased external types once', () => {
    const edge = (type: string, source: string, target: string) =>
      graph.edges.find((e) => e.type === type && graph.qn.get(e.source) === source && graph.qn.get(e.target) === target);
    // `_store.Exists(...)` in InvoiceService.Validation.cs: the field is declared in the other part
    expect(edge('calls', `${PART}.Validate`, `${STORE}.Exists`)).toMatchObject({ confidence: 0.8, provenance: 'ast_resolved' });
    // `var service = new InvoiceService(...); service.Cancel(...)`
    expect(edge('calls', `${T}.Cancel_rejects_paid_invoices`, `${SERVICE}.Cancel`)).toMatchObject({ confidence: 0.8 });
    expect(edge('calls', `${T}.Cancel_rejects_paid_invoices`, `${SERVICE}.InvoiceService`)).toMatchObject({ confidence: 0.8 });
    expect(edge('calls', `${SERVICE}.IssueAsync`, `${S}Contracts.cs.Money.Add`)).toMatchObject({ confidence: 0.8 });
    // `[Service]`: `ServiceAttribute`, in the same namespace
    expect(edge('decorates', `${S}ServiceAttribute.cs.ServiceAttribute`, SERVICE)).toMatchObject({ confidence: 0.8 });
    // `using Json = Newtonsoft.Json.JsonConvert;` … `Json.SerializeObject(issued)`
    const lines = graph.edges.map((e) => `${e.type} ${graph.qn.get(e.source)} -> ${graph.qn.get(e.target)}`);
    expect(lines).toContain(`calls ${SERVICE}.IssueAsync.Log -> external:Newtonsoft.Json.JsonConvert.SerializeObject`);
    expect(lines.filter((line) => line.includes('JsonConvert.JsonConvert'))).toEqual([]);
  });

  it('stores C# nodes with lines, signatures, docs and test flags', () => {
    const byQn = (qn: string) => graph.nodes.find((node) => node.qualifiedName === qn);
    expect(byQn(SERVICE)).toMatchObject({
      name: 'InvoiceService',
      kind: 'class',
      language: 'csharp',
      startLine: 13,
      endLine: 56,
      signature: 'public partial class InvoiceService : ServiceBase, IInvoiceService',
      doc: 'Issues invoices and charges Customer accounts.',
      isTest: false,
    });
    expect(byQn(`${T}.Validate_accepts`)?.isTest).toBe(true);
  });
});
