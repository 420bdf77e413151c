/**
 * End-to-end graph of the Java fixture: extraction by javaLanguage, resolution and derived
 * passes by the core, stored in the in-memory store. The repository's own subgraph is checked
 * exactly; placeholders outside it (JDK, libraries) only where they matter.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { javaLanguage } from '../src/languages/java.js';
import { repoGraph as indexedGraph } from './helpers/fixture-graph.js';
import type { RepoGraph } from './helpers/fixture-graph.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'java');
const S = 'src/main/java/com/acme/shop/';
const T = 'src/test/java/com/acme/shop/';

function repoGraph(): Promise<RepoGraph> {
  return indexedGraph(ROOT, javaLanguage);
}

// Reviewed by hand.
const NODES = [
  'class broken/Broken.java.Broken',
  `class ${S}BaseService.java.BaseService`,
  `class ${S}OrderException.java.OrderException`,
  `class ${S}OrderService.java.OrderService`,
  `class ${S}OrderService.java.OrderService.Summary`,
  `class ${S}OrderService.java.OrderService.count.Counter`,
  `class ${S}OrderService.java.OrderService.sorted.anon$Comparator`,
  `class ${S}model/Order.java.Order`,
  `class ${S}util/Strings.java.Strings`,
  `class ${T}OrderServiceTest.java.OrderServiceTest`,
  `constant ${S}OrderService.java.OrderService.MAX_ITEMS`,
  `constant ${S}Repository.java.Repository.PAGE_SIZE`,
  `constant ${S}model/Status.java.Status.NEW`,
  `constant ${S}model/Status.java.Status.PAID`,
  `constructor ${S}BaseService.java.BaseService.BaseService`,
  `constructor ${S}OrderException.java.OrderException.OrderException`,
  `constructor ${S}OrderService.java.OrderService.OrderService`,
  `constructor ${S}OrderService.java.OrderService.Summary.Summary`,
  `constructor ${S}model/Order.java.Order.Order`,
  `constructor ${S}util/Strings.java.Strings.Strings`,
  `enum ${S}model/Status.java.Status`,
  `field ${S}OrderService.java.OrderService.Summary.order`,
  `field ${S}OrderService.java.OrderService.count.Counter.total`,
  `field ${S}OrderService.java.OrderService.log`,
  `field ${S}OrderService.java.OrderService.repository`,
  `field ${S}model/Order.java.Order.id`,
  `field ${S}model/Order.java.Order.items`,
  `field ${T}OrderServiceTest.java.OrderServiceTest.service`,
  'file broken/Broken.java',
  `file ${S}BaseService.java`,
  `file ${S}OrderException.java`,
  `file ${S}OrderRepository.java`,
  `file ${S}OrderService.java`,
  `file ${S}Repository.java`,
  `file ${S}model/Order.java`,
  `file ${S}model/Status.java`,
  `file ${S}util/Strings.java`,
  `file ${T}OrderServiceTest.java`,
  `interface ${S}OrderRepository.java.OrderRepository`,
  `interface ${S}Repository.java.Audited`,
  `interface ${S}Repository.java.Repository`,
  'method broken/Broken.java.Broken.bad',
  'method broken/Broken.java.Broken.ok',
  `method ${S}BaseService.java.BaseService.close`,
  `method ${S}OrderRepository.java.OrderRepository.flush`,
  `method ${S}OrderRepository.java.OrderRepository.load`,
  `method ${S}OrderRepository.java.OrderRepository.store`,
  `method ${S}OrderService.java.OrderService.Summary.describe`,
  `method ${S}OrderService.java.OrderService.count`,
  `method ${S}OrderService.java.OrderService.find`,
  `method ${S}OrderService.java.OrderService.save`,
  `method ${S}OrderService.java.OrderService.sorted`,
  `method ${S}OrderService.java.OrderService.sorted.anon$Comparator.compare`,
  `method ${S}Repository.java.Audited.value`,
  `method ${S}Repository.java.Repository.exists`,
  `method ${S}Repository.java.Repository.save`,
  `method ${S}model/Order.java.Order.total`,
  `method ${S}model/Order.java.Order.validate`,
  `method ${S}model/Status.java.Status.PAID.isFinal`,
  `method ${S}model/Status.java.Status.isFinal`,
  `method ${S}util/Strings.java.Strings.isBlank`,
  `method ${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders`,
  `method ${T}OrderServiceTest.java.OrderServiceTest.summary`,
];

const SERVICE = `${S}OrderService.java.OrderService`;
const ORDER = `${S}model/Order.java.Order`;
const REPOSITORY = `${S}OrderRepository.java.OrderRepository`;

// Reviewed by hand: edges whose both ends are in the repository, except contains/member_of.
const EDGES: Record<string, string[]> = {
  accesses_field: [
    `${SERVICE}.OrderService -> ${SERVICE}.repository`,
    `${SERVICE}.Summary.Summary -> ${SERVICE}.Summary.order`,
    `${SERVICE}.Summary.describe -> ${SERVICE}.Summary.order`,
    `${SERVICE}.count -> ${SERVICE}.MAX_ITEMS`,
    `${SERVICE}.count -> ${SERVICE}.count.Counter.total`,
    `${SERVICE}.find -> ${SERVICE}.repository`,
    `${SERVICE}.save -> ${SERVICE}.log`,
    `${SERVICE}.save -> ${SERVICE}.repository`,
    `${ORDER}.Order -> ${ORDER}.id`,
    `${ORDER}.total -> ${ORDER}.items`,
    `${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders -> ${T}OrderServiceTest.java.OrderServiceTest.service`,
  ],
  calls: [
    // `super(repository)`
    `${SERVICE}.OrderService -> ${S}BaseService.java.BaseService.BaseService`,
    `${SERVICE}.Summary.describe -> ${ORDER}.id`,
    // `new Counter()` of a local class without a constructor
    `${SERVICE}.count -> ${SERVICE}.count.Counter`,
    // `((Order) value).items()`
    `${SERVICE}.count -> ${ORDER}.items`,
    // through the field's declared type
    `${SERVICE}.find -> ${REPOSITORY}.load`,
    `${SERVICE}.save -> ${REPOSITORY}.flush`,
    `${SERVICE}.save -> ${REPOSITORY}.store`,
    `${SERVICE}.save -> ${ORDER}.id`,
    // `import static com.acme.shop.util.Strings.isBlank`: a member of the class the import names
    `${SERVICE}.save -> ${S}util/Strings.java.Strings.isBlank`,
    // `Order::validate`
    `${SERVICE}.sorted -> ${ORDER}.validate`,
    `${SERVICE}.sorted.anon$Comparator.compare -> ${ORDER}.id`,
    `${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders -> ${SERVICE}.find`,
    `${T}OrderServiceTest.java.OrderServiceTest.service -> ${SERVICE}.OrderService`,
  ],
  decorates: [`${S}Repository.java.Audited -> ${SERVICE}`],
  extends: [`${SERVICE} -> ${S}BaseService.java.BaseService`],
  implements: [`${SERVICE} -> ${S}Repository.java.Repository`],
  imports: [
    `${S}OrderRepository.java -> ${S}model/Order.java`,
    `${S}OrderService.java -> ${S}model/Order.java`,
    `${S}OrderService.java -> ${S}model/Status.java`,
    `${S}OrderService.java -> ${S}util/Strings.java`,
  ],
  inherits: [`${SERVICE} -> ${S}BaseService.java.BaseService.close`, `${SERVICE} -> ${S}Repository.java.Repository.exists`],
  overrides: [`${SERVICE}.save -> ${S}Repository.java.Repository.save`],
  references: [
    `${SERVICE} -> ${ORDER}`,
    `${SERVICE}.count -> ${ORDER}`,
    `${SERVICE}.save -> ${S}model/Status.java.Status.PAID`,
    `${SERVICE}.sorted -> ${ORDER}`,
  ],
  tested_by: [`${SERVICE}.find -> ${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders`],
  tests: [`${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders -> ${SERVICE}.find`],
  throws: [`${SERVICE}.save -> ${S}OrderException.java.OrderException`, `${S}Repository.java.Repository.save -> ${S}OrderException.java.OrderException`],
  type_hint_of: [
    `${S}BaseService.java.BaseService.BaseService -> ${REPOSITORY}`,
    `${REPOSITORY}.load -> ${ORDER}`,
    `${REPOSITORY}.store -> ${ORDER}`,
    `${SERVICE}.OrderService -> ${REPOSITORY}`,
    `${SERVICE}.Summary.Summary -> ${ORDER}`,
    `${SERVICE}.Summary.order -> ${ORDER}`,
    `${SERVICE}.find -> ${ORDER}`,
    `${SERVICE}.repository -> ${REPOSITORY}`,
    `${SERVICE}.save -> ${ORDER}`,
    `${SERVICE}.sorted -> ${ORDER}`,
    `${SERVICE}.sorted.anon$Comparator.compare -> ${ORDER}`,
    `${T}OrderServiceTest.java.OrderServiceTest.service -> ${SERVICE}`,
    `${T}OrderServiceTest.java.OrderServiceTest.summary -> ${SERVICE}.Summary`,
  ],
};

describe('java fixture graph', () => {
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

  it('points JDK and library imports at external packages', () => {
    const imports = graph.edges.filter((edge) => edge.type === 'imports').map((edge) => `${graph.qn.get(edge.source)} -> ${graph.qn.get(edge.target)}`);
    expect(imports).toEqual(
      expect.arrayContaining([
        `${S}OrderService.java -> external:java`,
        `${S}OrderService.java -> external:org.slf4j`,
        `${T}OrderServiceTest.java -> external:org.junit`,
      ]),
    );
  });

  it('names placeholders of imported classes once, and of static imports by their class', () => {
    const calls = graph.edges.filter((edge) => edge.type === 'calls').map((edge) => `${graph.qn.get(edge.source)} -> ${graph.qn.get(edge.target)}`);
    const external = calls.filter((line) => line.includes('external:'));
    expect(external).toEqual(
      expect.arrayContaining([
        // `import java.util.List;` … `orders.sort(byId)`
        `${SERVICE}.sorted -> external:java.util.List.sort`,
        // `import static org.junit.jupiter.api.Assertions.assertEquals;`
        `${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders -> external:org.junit.jupiter.api.Assertions.assertEquals`,
      ]),
    );
    expect(external.filter((line) => /external:java\.util\.List\.List/.test(line))).toEqual([]);
    const isBlank = graph.edges.find((edge) => edge.type === 'calls' && graph.qn.get(edge.target) === `${S}util/Strings.java.Strings.isBlank`);
    expect(isBlank).toMatchObject({ confidence: 0.9, provenance: 'ast_resolved' });
  });

  it('stores Java nodes with lines, signatures, docs and test flags', () => {
    const byQn = (qn: string) => graph.nodes.find((node) => node.qualifiedName === qn);
    expect(byQn(SERVICE)).toMatchObject({
      name: 'OrderService',
      kind: 'class',
      language: 'java',
      startLine: 14,
      endLine: 79,
      signature: 'public class OrderService extends BaseService implements Repository<Order>',
      doc: 'Places and looks up orders.\n<p>Thread-safe.',
      isTest: false,
    });
    expect(byQn(`${T}OrderServiceTest.java.OrderServiceTest.findsSavedOrders`)?.isTest).toBe(true);
  });
});
