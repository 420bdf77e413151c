/**
 * TypeScript support: exact extraction of every file of test/fixtures/typescript/shop, import
 * resolution, and the graph the core resolver builds from those extractions.
 *
 * Extraction output is rendered one line per item so a whole file can be compared exactly:
 * symbols as `kind scope.name start-end [exported] [test] [in parent] [extends X] [@decorator]
 * [hints A,B] [: valueType] [override]`, references as `from kind qualifier.name @line [: receiverType]`,
 * imports as `line import|export source {imported as local} [* as alias]`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphEdge } from '@knowing/graph';
import { indexRepository } from '../src/index.js';
import { javascriptLanguage } from '../src/languages/javascript.js';
import { createLanguageRegistry } from '../src/languages/registry.js';
import type { FileExtraction, ImportDecl, LanguageModule, ProjectLayout } from '../src/languages/types.js';
import { typescriptLanguage } from '../src/languages/typescript.js';
import { edgesOfType, graphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';
import { buildGraph as buildScriptGraph, edgesOf, extractFile, listFiles, render } from './helpers/script-fixture.js';
import type { Graph, Rendered } from './helpers/script-fixture.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'typescript');
const shop = path.join(fixtures, 'shop');

function moduleFor(file: string): LanguageModule {
  return /\.[cm]?jsx?$/.test(file) ? javascriptLanguage : typescriptLanguage;
}

function extract(relative: string, root = shop): Promise<FileExtraction> {
  return extractFile(moduleFor(relative), root, relative);
}

function layout(files: readonly string[]): ProjectLayout {
  const set = new Set(files);
  return {
    hasFile: (file) => set.has(file),
    filesInDirectory: (directory) => files.filter((file) => path.posix.dirname(file) === (directory || '.')),
    goModulePath: undefined,
    filesInNamespace: () => [],
  };
}

const decl = (source: string): ImportDecl => ({ source, names: [], line: 1 });

/** The graph `indexRepository` writes, assembled from the same parts: extraction, the core's resolver, its derived passes. */
function buildGraph(root: string): Promise<Graph> {
  return buildScriptGraph(root, moduleFor);
}

// ---------------------------------------------------------------------------------------------

/** Every file of the shop fixture, exactly. Reviewed by hand. */
const SHOP_EXTRACTIONS: Record<string, Rendered> = {
  'src/app.ts': {
    symbols: [
      'function main 6-13 exported',
    ],
    references: [
      'main call createShop @7',
      'main new Orders @7',
      'main new OrderRepository @7',
      'main new Cart @8',
      'main call cart.add @9 : Cart',
      'main value util @9',
      'main call shop.service.place @10',
      'main new UserRecord @10',
      'main call Button @11',
      'main value version @11',
      'main call util.formatPrice @11',
      'main call formatPrice @12',
      'main call cart.label @12 : Cart',
    ],
    imports: [
      '2 import ./index {default as createShop, Button, Cart, formatPrice, Orders, UserRecord, util, version}',
      '3 import ./services/order-repository {OrderRepository}',
    ],
  },
  'src/cart.ts': {
    symbols: [
      'constant CART_LIMIT 4-4 exported',
      'class cart 6-17 exported',
      'field cart.items 7-7 in cart',
      'method cart.add 9-12 exported in cart',
      'method cart.label 14-16 exported in cart',
    ],
    references: [
      'cart.add field this.items @10',
      'cart.add value CART_LIMIT @10',
      'cart.add raise RangeError @10',
      'cart.add call this.items.push @11',
      'cart.add field this.items @11',
      'cart.label call formatPrice @15',
      'cart.label call this.items.reduce @15',
      'cart.label field this.items @15',
    ],
    imports: [
      '2 import ./util/index {formatPrice}',
      '6 export ./cart.ts {cart as default}',
    ],
  },
  'src/components/Button.tsx': {
    symbols: [
      'interface ButtonProps 7-11 exported',
      'property ButtonProps.label 8-8 exported in ButtonProps',
      'property ButtonProps.icon 9-9 exported in ButtonProps hints ReactNode : ReactNode',
      'method ButtonProps.onPress 10-10 exported in ButtonProps',
      'function PriceButton 14-27 exported hints ButtonProps',
      'function Button 29-31 exported hints ButtonProps',
    ],
    references: [
      'PriceButton call memo @14',
      'PriceButton call useState @15',
      'PriceButton call Icon.Svg @23',
      'PriceButton call formatPrice @24',
      'Button call PriceButton @30',
    ],
    imports: [
      '2 import react {memo, useState}',
      '3 import react {ReactNode}',
      '4 import ../util {formatPrice}',
      '5 import ./Icon * as Icon',
      '29 export ./Button.tsx {Button as default}',
    ],
  },
  'src/components/Icon.tsx': {
    symbols: [
      'function Svg 2-4 exported',
    ],
    references: [],
    imports: [],
  },
  'src/errors.ts': {
    symbols: [
      'class NotFoundError 2-6 exported extends Error',
      'constructor NotFoundError.constructor 3-5 exported in NotFoundError',
    ],
    references: [
      'NotFoundError.constructor call super.constructor @4',
    ],
    imports: [],
  },
  'src/index.ts': {
    symbols: [
      'constant VERSION 14-14 exported',
      'interface Shop 17-20 exported',
      'property Shop.service 18-18 exported in Shop hints OrderService : OrderService',
      'property Shop.version 19-19 exported in Shop',
      'function createShop 22-24 exported hints OrderService,Shop',
    ],
    references: [
      'createShop value VERSION @23',
    ],
    imports: [
      '3 export ./models/user.js {*}',
      '4 export ./services/order-service {OrderService as Orders}',
      '5 export ./services/order-service {OrderId}',
      '6 export ./cart {default as Cart, CART_LIMIT}',
      '7 export ./util/index.js * as util',
      '12 export ./util {formatPrice}',
      '8 import ./util {formatPrice}',
      '12 export ./components/Button {default as Button}',
      '9 import ./components/Button {default as Button}',
      '10 import ./services/order-service {OrderService}',
      '22 export ./index.ts {createShop as default}',
      '15 export ./index.ts {VERSION as version}',
    ],
  },
  'src/models/address.ts': {
    symbols: [
      'interface Address 2-5 exported',
      'property Address.street 3-3 exported in Address',
      'property Address.city 4-4 exported in Address',
      'constant EMPTY_ADDRESS 7-7 exported hints Address : Address',
    ],
    references: [],
    imports: [],
  },
  'src/models/user.ts': {
    symbols: [
      'interface User 5-11 exported',
      'property User.id 6-6 exported in User hints UserId : UserId',
      'property User.name 7-7 exported in User',
      'property User.address 8-8 exported in User hints Address : Address',
      'method User.displayName 10-10 exported in User',
      'type_alias UserId 13-13 exported',
      'enum Role 15-18 exported',
      'constant Role.Admin 16-16 exported in Role',
      'constant Role.Customer 17-17 exported in Role',
      'class Entity 20-24 exported',
      'constructor Entity.constructor 21-21 exported in Entity hints UserId',
      'field Entity.id 21-21 exported in Entity hints UserId : UserId',
      'method Entity.validate 23-23 exported in Entity',
      'class UserRecord 26-51 exported extends Entity implements User',
      'field UserRecord.name 27-27 exported in UserRecord',
      'field UserRecord.address 28-28 exported in UserRecord hints Address : Address',
      'field UserRecord.#secret 29-29 in UserRecord',
      'field UserRecord.KIND 30-30 exported in UserRecord',
      'constructor UserRecord.constructor 32-34 exported in UserRecord hints UserId,Role',
      'field UserRecord.role 32-32 in UserRecord hints Role : Role',
      'method UserRecord.displayName 36-38 exported in UserRecord',
      'method UserRecord.validate 40-42 exported in UserRecord hints User override',
      'property UserRecord.isAdmin 44-50 exported in UserRecord',
    ],
    references: [
      'UserRecord type User @26',
      'UserRecord.constructor value Role.Customer @32',
      'UserRecord.constructor call super.constructor @33',
      'UserRecord.displayName field this.name @37',
      'UserRecord.displayName field this.role @37',
      'UserRecord.validate field this.#secret @41',
      'UserRecord.isAdmin field this.role @45',
      'UserRecord.isAdmin value Role.Admin @45',
      'UserRecord.isAdmin field this.role @49',
      'UserRecord.isAdmin value Role.Admin @49',
      'UserRecord.isAdmin value Role.Customer @49',
    ],
    imports: [
      '2 import ./address {Address}',
    ],
  },
  'src/services/order-repository.ts': {
    symbols: [
      'class OrderRepository 4-14 exported',
      'field OrderRepository.rows 5-5 in OrderRepository hints Order',
      'method OrderRepository.save 7-9 exported in OrderRepository hints Order',
      'method OrderRepository.load 11-13 exported in OrderRepository hints OrderId,Order',
      'class CachedRepository 16-21 exported extends OrderRepository',
      'method CachedRepository.load 17-20 exported in CachedRepository hints OrderId,Order override',
    ],
    references: [
      'OrderRepository.save call this.rows.push @8',
      'OrderRepository.save field this.rows @8',
      'OrderRepository.load call this.rows.find @12',
      'OrderRepository.load field this.rows @12',
      'CachedRepository.load call super.load @18',
    ],
    imports: [
      '2 import ./order-service {Order, OrderId}',
    ],
  },
  'src/services/order-service.ts': {
    symbols: [
      'type_alias OrderId 9-9 exported',
      'interface Order 11-15 exported',
      'property Order.id 12-12 exported in Order hints OrderId : OrderId',
      'property Order.user 13-13 exported in Order hints User : User',
      'property Order.lines 14-14 exported in Order hints OrderLine',
      'interface OrderLine 17-20',
      'property OrderLine.sku 18-18 in OrderLine',
      'property OrderLine.cents 19-19 in OrderLine',
      'class OrderService 26-63 exported @Injectable',
      'field OrderService.cache 28-28 in OrderService',
      'constructor OrderService.constructor 30-33 exported in OrderService hints OrderRepository',
      'field OrderService.repo 31-31 in OrderService hints OrderRepository : OrderRepository',
      'field OrderService.clock 32-32 in OrderService @Inject',
      'method OrderService.place 35-41 exported in OrderService hints UserRecord,OrderLine,Order',
      'method OrderService.find 43-47 exported in OrderService hints OrderId,Order',
      'method OrderService.total 49-52 exported in OrderService hints Order',
      'method OrderService.describe 54-58 exported in OrderService hints OrderId,Order',
      'method OrderService.onChange 60-62 exported in OrderService hints Order',
    ],
    references: [
      'OrderService.cache type OrderId @28',
      'OrderService.cache type Order @28',
      'OrderService.place type OrderId @36',
      'OrderService.place call crypto.randomUUID @36',
      'OrderService.place type Order @37',
      'OrderService.place call this.repo.save @38',
      'OrderService.place field this.repo @38',
      'OrderService.place call this.cache.set @39',
      'OrderService.place field this.cache @39',
      'OrderService.find call this.cache.get @44',
      'OrderService.find field this.cache @44',
      'OrderService.find call this.repo.load @44',
      'OrderService.find field this.repo @44',
      'OrderService.find raise NotFoundError @45',
      'OrderService.total call order.lines.reduce @50 : Order',
      'OrderService.total call formatPrice @51',
      'OrderService.total value TAX_RATE @51',
      'OrderService.onChange call this.cache.delete @61',
      'OrderService.onChange field this.cache @61',
    ],
    imports: [
      '2 import @nestjs/common {Inject, Injectable}',
      '3 import node:crypto * as crypto',
      '4 import ../models/user.js {UserRecord, User}',
      '5 import ./order-repository {OrderRepository}',
      '6 import ../errors {NotFoundError}',
      '7 import ../util {formatPrice, TAX_RATE}',
    ],
  },
  'src/types.d.ts': {
    symbols: [
      'module legacy-lib 1-3 exported',
      'function legacy-lib.legacy 2-2 exported in legacy-lib',
      'interface Window 6-8 exported',
      'property Window.shop 7-7 exported in Window',
    ],
    references: [],
    imports: [],
  },
  'src/util/index.ts': {
    symbols: [
      'constant TAX_RATE 2-2 exported',
      'constant CURRENCIES 3-3 exported',
      'variable calls 4-4',
      'function formatPrice 7-10 exported',
      'function sum 12-12 exported',
      'function ids 14-17 exported',
      'module Money 19-25 exported',
      'constant Money.ZERO 20-20 exported in Money',
      'function Money.add 22-24 exported in Money',
    ],
    references: [
      'formatPrice value CURRENCIES @7',
      'formatPrice value calls @8',
      'formatPrice call ?.toFixed @9',
      'sum call values.reduce @12',
      'Money.add call sum @23',
    ],
    imports: [],
  },
  'test/order-service.spec.ts': {
    symbols: [
      'function makeService 7-9 test hints OrderService',
    ],
    references: [
      'makeService new OrderService @8',
      'makeService new OrderRepository @8',
      '<file> call describe @11',
      '<file> call it @12',
      '<file> type OrderService @13',
      '<file> call makeService @13',
      '<file> call service.place @14 : OrderService',
      '<file> new UserRecord @14',
      '<file> call ?.toEqual @15',
      '<file> call expect @15',
    ],
    imports: [
      '2 import vitest {describe, expect, it}',
      '3 import ../src/services/order-repository {OrderRepository}',
      '4 import ../src/services/order-service {OrderService}',
      '5 import ../src/models/user {UserRecord}',
    ],
  },
};

/** The graph of the shop fixture (repo id 'fixture'), every node and every edge except contains/member_of. */
const SHOP_NODES = [
  'class src/cart.ts.cart',
  'class src/errors.ts.NotFoundError',
  'class src/models/user.ts.Entity',
  'class src/models/user.ts.UserRecord',
  'class src/services/order-repository.ts.CachedRepository',
  'class src/services/order-repository.ts.OrderRepository',
  'class src/services/order-service.ts.OrderService',
  'constant src/cart.ts.CART_LIMIT',
  'constant src/index.ts.VERSION',
  'constant src/models/address.ts.EMPTY_ADDRESS',
  'constant src/models/user.ts.Role.Admin',
  'constant src/models/user.ts.Role.Customer',
  'constant src/util/index.ts.CURRENCIES',
  'constant src/util/index.ts.Money.ZERO',
  'constant src/util/index.ts.TAX_RATE',
  'constructor src/errors.ts.NotFoundError.constructor',
  'constructor src/models/user.ts.Entity.constructor',
  'constructor src/models/user.ts.UserRecord.constructor',
  'constructor src/services/order-service.ts.OrderService.constructor',
  'enum src/models/user.ts.Role',
  'external external:?.toEqual',
  'external external:?.toFixed',
  'external external:@nestjs/common',
  'external external:@nestjs/common.Inject',
  'external external:@nestjs/common.Injectable',
  'external external:Error',
  'external external:NotFoundError.constructor',
  'external external:OrderRepository.rows.find',
  'external external:OrderRepository.rows.push',
  'external external:OrderService.cache.delete',
  'external external:OrderService.cache.get',
  'external external:OrderService.cache.set',
  'external external:RangeError',
  'external external:cart.items.push',
  'external external:cart.items.reduce',
  'external external:node',
  'external external:node:crypto.randomUUID',
  'external external:order.lines.reduce',
  'external external:react',
  'external external:react.ReactNode',
  'external external:react.memo',
  'external external:react.useState',
  'external external:values.reduce',
  'external external:vitest',
  'external external:vitest.describe',
  'external external:vitest.expect',
  'external external:vitest.it',
  'field src/cart.ts.cart.items',
  'field src/models/user.ts.Entity.id',
  'field src/models/user.ts.UserRecord.#secret',
  'field src/models/user.ts.UserRecord.KIND',
  'field src/models/user.ts.UserRecord.address',
  'field src/models/user.ts.UserRecord.name',
  'field src/models/user.ts.UserRecord.role',
  'field src/services/order-repository.ts.OrderRepository.rows',
  'field src/services/order-service.ts.OrderService.cache',
  'field src/services/order-service.ts.OrderService.clock',
  'field src/services/order-service.ts.OrderService.repo',
  'file src/app.ts',
  'file src/cart.ts',
  'file src/components/Button.tsx',
  'file src/components/Icon.tsx',
  'file src/errors.ts',
  'file src/index.ts',
  'file src/models/address.ts',
  'file src/models/user.ts',
  'file src/services/order-repository.ts',
  'file src/services/order-service.ts',
  'file src/types.d.ts',
  'file src/util/index.ts',
  'file test/order-service.spec.ts',
  'function src/app.ts.main',
  'function src/components/Button.tsx.Button',
  'function src/components/Button.tsx.PriceButton',
  'function src/components/Icon.tsx.Svg',
  'function src/index.ts.createShop',
  'function src/types.d.ts.legacy-lib.legacy',
  'function src/util/index.ts.Money.add',
  'function src/util/index.ts.formatPrice',
  'function src/util/index.ts.ids',
  'function src/util/index.ts.sum',
  'function test/order-service.spec.ts.makeService',
  'interface src/components/Button.tsx.ButtonProps',
  'interface src/index.ts.Shop',
  'interface src/models/address.ts.Address',
  'interface src/models/user.ts.User',
  'interface src/services/order-service.ts.Order',
  'interface src/services/order-service.ts.OrderLine',
  'interface src/types.d.ts.Window',
  'method src/cart.ts.cart.add',
  'method src/cart.ts.cart.label',
  'method src/components/Button.tsx.ButtonProps.onPress',
  'method src/models/user.ts.Entity.validate',
  'method src/models/user.ts.User.displayName',
  'method src/models/user.ts.UserRecord.displayName',
  'method src/models/user.ts.UserRecord.validate',
  'method src/services/order-repository.ts.CachedRepository.load',
  'method src/services/order-repository.ts.OrderRepository.load',
  'method src/services/order-repository.ts.OrderRepository.save',
  'method src/services/order-service.ts.OrderService.describe',
  'method src/services/order-service.ts.OrderService.find',
  'method src/services/order-service.ts.OrderService.onChange',
  'method src/services/order-service.ts.OrderService.place',
  'method src/services/order-service.ts.OrderService.total',
  'module src/types.d.ts.legacy-lib',
  'module src/util/index.ts.Money',
  'property src/components/Button.tsx.ButtonProps.icon',
  'property src/components/Button.tsx.ButtonProps.label',
  'property src/index.ts.Shop.service',
  'property src/index.ts.Shop.version',
  'property src/models/address.ts.Address.city',
  'property src/models/address.ts.Address.street',
  'property src/models/user.ts.User.address',
  'property src/models/user.ts.User.id',
  'property src/models/user.ts.User.name',
  'property src/models/user.ts.UserRecord.isAdmin',
  'property src/services/order-service.ts.Order.id',
  'property src/services/order-service.ts.Order.lines',
  'property src/services/order-service.ts.Order.user',
  'property src/services/order-service.ts.OrderLine.cents',
  'property src/services/order-service.ts.OrderLine.sku',
  'property src/types.d.ts.Window.shop',
  'type_alias src/models/user.ts.UserId',
  'type_alias src/services/order-service.ts.OrderId',
  'variable src/util/index.ts.calls',
];

const SHOP_EDGES: Record<string, string[]> = {
  accesses_field: [
    'src/cart.ts.cart.add -> src/cart.ts.cart.items',
    'src/cart.ts.cart.label -> src/cart.ts.cart.items',
    'src/models/user.ts.UserRecord.displayName -> src/models/user.ts.UserRecord.name',
    'src/models/user.ts.UserRecord.displayName -> src/models/user.ts.UserRecord.role',
    'src/models/user.ts.UserRecord.isAdmin -> src/models/user.ts.UserRecord.role',
    'src/models/user.ts.UserRecord.validate -> src/models/user.ts.UserRecord.#secret',
    'src/services/order-repository.ts.OrderRepository.load -> src/services/order-repository.ts.OrderRepository.rows',
    'src/services/order-repository.ts.OrderRepository.save -> src/services/order-repository.ts.OrderRepository.rows',
    'src/services/order-service.ts.OrderService.find -> src/services/order-service.ts.OrderService.cache',
    'src/services/order-service.ts.OrderService.find -> src/services/order-service.ts.OrderService.repo',
    'src/services/order-service.ts.OrderService.onChange -> src/services/order-service.ts.OrderService.cache',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.OrderService.cache',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.OrderService.repo',
  ],
  calls: [
    'src/app.ts.main -> src/cart.ts.cart',
    'src/app.ts.main -> src/cart.ts.cart.add',
    'src/app.ts.main -> src/cart.ts.cart.label',
    'src/app.ts.main -> src/components/Button.tsx.Button',
    'src/app.ts.main -> src/index.ts.createShop',
    'src/app.ts.main -> src/models/user.ts.UserRecord.constructor',
    'src/app.ts.main -> src/services/order-repository.ts.OrderRepository',
    'src/app.ts.main -> src/services/order-service.ts.OrderService.constructor',
    'src/app.ts.main -> src/services/order-service.ts.OrderService.place',
    'src/app.ts.main -> src/util/index.ts.formatPrice',
    'src/cart.ts.cart.add -> external:cart.items.push',
    'src/cart.ts.cart.label -> external:cart.items.reduce',
    'src/cart.ts.cart.label -> src/util/index.ts.formatPrice',
    'src/components/Button.tsx.Button -> src/components/Button.tsx.PriceButton',
    'src/components/Button.tsx.PriceButton -> external:react.memo',
    'src/components/Button.tsx.PriceButton -> external:react.useState',
    'src/components/Button.tsx.PriceButton -> src/components/Icon.tsx.Svg',
    'src/components/Button.tsx.PriceButton -> src/util/index.ts.formatPrice',
    'src/errors.ts.NotFoundError.constructor -> external:NotFoundError.constructor',
    'src/models/user.ts.UserRecord.constructor -> src/models/user.ts.Entity.constructor',
    'src/services/order-repository.ts.CachedRepository.load -> src/services/order-repository.ts.OrderRepository.load',
    'src/services/order-repository.ts.OrderRepository.load -> external:OrderRepository.rows.find',
    'src/services/order-repository.ts.OrderRepository.save -> external:OrderRepository.rows.push',
    'src/services/order-service.ts.OrderService.find -> external:OrderService.cache.get',
    'src/services/order-service.ts.OrderService.find -> src/services/order-repository.ts.OrderRepository.load',
    'src/services/order-service.ts.OrderService.onChange -> external:OrderService.cache.delete',
    'src/services/order-service.ts.OrderService.place -> external:OrderService.cache.set',
    'src/services/order-service.ts.OrderService.place -> external:node:crypto.randomUUID',
    'src/services/order-service.ts.OrderService.place -> src/services/order-repository.ts.OrderRepository.save',
    'src/services/order-service.ts.OrderService.total -> external:order.lines.reduce',
    'src/services/order-service.ts.OrderService.total -> src/util/index.ts.formatPrice',
    'src/util/index.ts.Money.add -> src/util/index.ts.sum',
    'src/util/index.ts.formatPrice -> external:?.toFixed',
    'src/util/index.ts.sum -> external:values.reduce',
    'test/order-service.spec.ts -> external:?.toEqual',
    'test/order-service.spec.ts -> external:vitest.describe',
    'test/order-service.spec.ts -> external:vitest.expect',
    'test/order-service.spec.ts -> external:vitest.it',
    'test/order-service.spec.ts -> src/models/user.ts.UserRecord.constructor',
    'test/order-service.spec.ts -> src/services/order-service.ts.OrderService.place',
    'test/order-service.spec.ts -> test/order-service.spec.ts.makeService',
    'test/order-service.spec.ts.makeService -> src/services/order-repository.ts.OrderRepository',
    'test/order-service.spec.ts.makeService -> src/services/order-service.ts.OrderService.constructor',
  ],
  // The spec's `describe`/`it` callbacks call from the file: its targets in first-call order are
  // makeService's two, then `service.place` and `new UserRecord`.
  co_tested_with: [
    'src/services/order-repository.ts.OrderRepository -> src/models/user.ts.UserRecord.constructor',
    'src/services/order-repository.ts.OrderRepository -> src/services/order-service.ts.OrderService.constructor',
    'src/services/order-repository.ts.OrderRepository -> src/services/order-service.ts.OrderService.place',
    'src/services/order-service.ts.OrderService.constructor -> src/models/user.ts.UserRecord.constructor',
    'src/services/order-service.ts.OrderService.place -> src/models/user.ts.UserRecord.constructor',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.OrderService.constructor',
  ],
  decorates: [
    'external:@nestjs/common.Inject -> src/services/order-service.ts.OrderService.clock',
    'external:@nestjs/common.Injectable -> src/services/order-service.ts.OrderService',
  ],
  extends: [
    'src/errors.ts.NotFoundError -> external:Error',
    'src/models/user.ts.UserRecord -> src/models/user.ts.Entity',
    'src/services/order-repository.ts.CachedRepository -> src/services/order-repository.ts.OrderRepository',
  ],
  implements: [
    'src/models/user.ts.UserRecord -> src/models/user.ts.User',
  ],
  imports: [
    'src/app.ts -> src/cart.ts',
    'src/app.ts -> src/components/Button.tsx',
    'src/app.ts -> src/index.ts',
    'src/app.ts -> src/models/user.ts',
    'src/app.ts -> src/services/order-repository.ts',
    'src/app.ts -> src/services/order-service.ts',
    'src/app.ts -> src/util/index.ts',
    'src/cart.ts -> src/util/index.ts',
    'src/components/Button.tsx -> external:react',
    'src/components/Button.tsx -> src/components/Icon.tsx',
    'src/components/Button.tsx -> src/util/index.ts',
    'src/index.ts -> src/cart.ts',
    'src/index.ts -> src/components/Button.tsx',
    'src/index.ts -> src/models/user.ts',
    'src/index.ts -> src/services/order-service.ts',
    'src/index.ts -> src/util/index.ts',
    'src/models/user.ts -> src/models/address.ts',
    'src/services/order-repository.ts -> src/services/order-service.ts',
    'src/services/order-service.ts -> external:@nestjs/common',
    'src/services/order-service.ts -> external:node',
    'src/services/order-service.ts -> src/errors.ts',
    'src/services/order-service.ts -> src/models/user.ts',
    'src/services/order-service.ts -> src/services/order-repository.ts',
    'src/services/order-service.ts -> src/util/index.ts',
    'test/order-service.spec.ts -> external:vitest',
    'test/order-service.spec.ts -> src/models/user.ts',
    'test/order-service.spec.ts -> src/services/order-repository.ts',
    'test/order-service.spec.ts -> src/services/order-service.ts',
  ],
  inherits: [
    'src/services/order-repository.ts.CachedRepository -> src/services/order-repository.ts.OrderRepository.save',
  ],
  overrides: [
    'src/models/user.ts.UserRecord.displayName -> src/models/user.ts.User.displayName',
    'src/models/user.ts.UserRecord.validate -> src/models/user.ts.Entity.validate',
    'src/services/order-repository.ts.CachedRepository.load -> src/services/order-repository.ts.OrderRepository.load',
  ],
  references: [
    'src/app.ts.main -> src/index.ts.VERSION',
    'src/cart.ts.cart.add -> src/cart.ts.CART_LIMIT',
    'src/index.ts.createShop -> src/index.ts.VERSION',
    'src/models/user.ts.UserRecord -> src/models/user.ts.User',
    'src/models/user.ts.UserRecord.constructor -> src/models/user.ts.Role.Customer',
    'src/models/user.ts.UserRecord.isAdmin -> src/models/user.ts.Role.Admin',
    'src/models/user.ts.UserRecord.isAdmin -> src/models/user.ts.Role.Customer',
    'src/services/order-service.ts.OrderService.cache -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.OrderService.cache -> src/services/order-service.ts.OrderId',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.OrderId',
    'src/services/order-service.ts.OrderService.total -> src/util/index.ts.TAX_RATE',
    'src/util/index.ts.formatPrice -> src/util/index.ts.CURRENCIES',
    'src/util/index.ts.formatPrice -> src/util/index.ts.calls',
    'test/order-service.spec.ts -> src/services/order-service.ts.OrderService',
  ],
  tested_by: [
    'src/models/user.ts.UserRecord.constructor -> test/order-service.spec.ts',
    'src/services/order-repository.ts.OrderRepository -> test/order-service.spec.ts.makeService',
    'src/services/order-service.ts.OrderService.constructor -> test/order-service.spec.ts.makeService',
    'src/services/order-service.ts.OrderService.place -> test/order-service.spec.ts',
  ],
  // `it(...)` callbacks are not symbols: their calls are the test file's.
  tests: [
    'test/order-service.spec.ts -> src/models/user.ts.UserRecord.constructor',
    'test/order-service.spec.ts -> src/services/order-service.ts.OrderService.place',
    'test/order-service.spec.ts.makeService -> src/services/order-repository.ts.OrderRepository',
    'test/order-service.spec.ts.makeService -> src/services/order-service.ts.OrderService.constructor',
  ],
  throws: [
    'src/cart.ts.cart.add -> external:RangeError',
    'src/services/order-service.ts.OrderService.find -> src/errors.ts.NotFoundError',
  ],
  type_hint_of: [
    'src/components/Button.tsx.Button -> src/components/Button.tsx.ButtonProps',
    'src/components/Button.tsx.ButtonProps.icon -> external:react.ReactNode',
    'src/components/Button.tsx.PriceButton -> src/components/Button.tsx.ButtonProps',
    'src/index.ts.Shop.service -> src/services/order-service.ts.OrderService',
    'src/index.ts.createShop -> src/index.ts.Shop',
    'src/index.ts.createShop -> src/services/order-service.ts.OrderService',
    'src/models/address.ts.EMPTY_ADDRESS -> src/models/address.ts.Address',
    'src/models/user.ts.Entity.constructor -> src/models/user.ts.UserId',
    'src/models/user.ts.Entity.id -> src/models/user.ts.UserId',
    'src/models/user.ts.User.address -> src/models/address.ts.Address',
    'src/models/user.ts.User.id -> src/models/user.ts.UserId',
    'src/models/user.ts.UserRecord.address -> src/models/address.ts.Address',
    'src/models/user.ts.UserRecord.constructor -> src/models/user.ts.Role',
    'src/models/user.ts.UserRecord.constructor -> src/models/user.ts.UserId',
    'src/models/user.ts.UserRecord.role -> src/models/user.ts.Role',
    'src/models/user.ts.UserRecord.validate -> src/models/user.ts.User',
    'src/services/order-repository.ts.CachedRepository.load -> src/services/order-service.ts.Order',
    'src/services/order-repository.ts.CachedRepository.load -> src/services/order-service.ts.OrderId',
    'src/services/order-repository.ts.OrderRepository.load -> src/services/order-service.ts.Order',
    'src/services/order-repository.ts.OrderRepository.load -> src/services/order-service.ts.OrderId',
    'src/services/order-repository.ts.OrderRepository.rows -> src/services/order-service.ts.Order',
    'src/services/order-repository.ts.OrderRepository.save -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.Order.id -> src/services/order-service.ts.OrderId',
    'src/services/order-service.ts.Order.lines -> src/services/order-service.ts.OrderLine',
    'src/services/order-service.ts.Order.user -> src/models/user.ts.User',
    'src/services/order-service.ts.OrderService.constructor -> src/services/order-repository.ts.OrderRepository',
    'src/services/order-service.ts.OrderService.describe -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.OrderService.describe -> src/services/order-service.ts.OrderId',
    'src/services/order-service.ts.OrderService.find -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.OrderService.find -> src/services/order-service.ts.OrderId',
    'src/services/order-service.ts.OrderService.onChange -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.OrderService.place -> src/models/user.ts.UserRecord',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.Order',
    'src/services/order-service.ts.OrderService.place -> src/services/order-service.ts.OrderLine',
    'src/services/order-service.ts.OrderService.repo -> src/services/order-repository.ts.OrderRepository',
    'src/services/order-service.ts.OrderService.total -> src/services/order-service.ts.Order',
    'test/order-service.spec.ts.makeService -> src/services/order-service.ts.OrderService',
  ],
};


describe('typescript module', () => {
  it('parses .ts/.mts/.cts with the typescript grammar and .tsx with tsx', () => {
    expect(typescriptLanguage.id).toBe('typescript');
    expect(typescriptLanguage.extensions).toEqual(['.ts', '.mts', '.cts', '.tsx']);
    expect(['a.ts', 'a.mts', 'a.cts', 'a.d.ts', 'src/App.tsx', 'src/App.TSX'].map((file) => typescriptLanguage.grammarFor(file))).toEqual([
      'typescript',
      'typescript',
      'typescript',
      'typescript',
      'tsx',
      'tsx',
    ]);
    expect(typescriptLanguage.version).toBe(javascriptLanguage.version);
    expect(typescriptLanguage.selfNames).toEqual(['this']);
    expect(typescriptLanguage.superNames).toEqual(['super']);
  });

  it('recognises test files by name and directory', () => {
    const tests = ['src/a.test.ts', 'src/a.spec.tsx', 'src/__tests__/a.ts', 'test/a.ts', 'packages/x/tests/a.ts', 'e2e/login.e2e-spec.ts', 'src/a_test.ts'];
    const sources = ['src/a.ts', 'src/testing.ts', 'src/latest/a.ts', 'src/contest.ts', 'src/attest.spec-helper.ts'];
    expect(tests.filter((file) => !typescriptLanguage.isTestFile(file))).toEqual([]);
    expect(sources.filter((file) => typescriptLanguage.isTestFile(file))).toEqual([]);
  });
});

describe('typescript extraction', () => {
  for (const [file, expected] of Object.entries(SHOP_EXTRACTIONS)) {
    it(`extracts ${file} exactly`, async () => {
      const extraction = await extract(file);
      expect(render(extraction)).toEqual(expected);
      expect(extraction).toMatchObject({ path: file, language: 'typescript', namespace: '', syntaxErrors: 0 });
    });
  }

  it('covers every file of the fixture', async () => {
    expect(Object.keys(SHOP_EXTRACTIONS)).toEqual(await listFiles(shop));
  });

  it('records signatures up to the body and JSDoc without its markers', async () => {
    const service = await extract('src/services/order-service.ts');
    expect(service.symbols[8]).toEqual({
      name: 'OrderService',
      kind: 'class',
      scope: [],
      startLine: 26,
      endLine: 63,
      signature: 'export class OrderService',
      doc: 'Places and looks up orders.\nTalks to the repository only.',
      isTest: false,
      parent: -1,
      exported: true,
      decorators: [{ name: 'Injectable', qualifier: [] }],
    });
    expect(service.symbols[13]).toMatchObject({
      name: 'place',
      signature: 'async place(user: UserRecord, lines: OrderLine[]): Promise<Order>',
      typeHints: [
        { name: 'UserRecord', qualifier: [] },
        { name: 'OrderLine', qualifier: [] },
        { name: 'Order', qualifier: [] },
      ],
    });
    const util = await extract('src/util/index.ts');
    expect(util.symbols[3]).toMatchObject({
      name: 'formatPrice',
      signature: 'export function formatPrice(cents: number, currency: string = CURRENCIES[0]): string',
      doc: 'Format cents as a price, e.g. `12.50 EUR`.',
    });
    expect(util.symbols[4]).toMatchObject({ name: 'sum', signature: 'export const sum = (values: readonly number[]): number =>' });
    const user = await extract('src/models/user.ts');
    expect(user.symbols[4]).toMatchObject({ name: 'displayName', doc: 'Name shown in the UI.', signature: 'displayName(): string' });
  });

  it('merges overload signatures into their implementation and a getter into its setter', async () => {
    const service = await extract('src/services/order-service.ts');
    expect(service.symbols.filter((s) => s.name === 'describe')).toEqual([
      expect.objectContaining({ kind: 'method', startLine: 54, endLine: 58, signature: 'describe(id: OrderId): string' }),
    ]);
    const user = await extract('src/models/user.ts');
    expect(user.symbols.filter((s) => s.name === 'isAdmin')).toEqual([
      expect.objectContaining({ kind: 'property', startLine: 44, endLine: 50, signature: 'get isAdmin(): boolean' }),
    ]);
  });

  it('types receivers of typed parameters and locals, and leaves this/super to the enclosing class', async () => {
    const service = await extract('src/services/order-service.ts');
    const byName = (name: string) => service.references.filter((r) => r.name === name);
    expect(byName('reduce')).toEqual([
      { name: 'reduce', qualifier: ['order', 'lines'], from: 15, kind: 'call', receiverType: { name: 'Order', qualifier: [] }, line: 50 },
    ]);
    // `this.repo.save()`: the core follows the field's declared type, so no receiver type here.
    expect(byName('save')).toEqual([{ name: 'save', qualifier: ['this', 'repo'], from: 13, kind: 'call', line: 38 }]);
    expect(service.symbols[11]).toMatchObject({ name: 'repo', kind: 'field', valueType: { name: 'OrderRepository', qualifier: [] } });
  });

  it('describes re-exports and default exports as import declarations', async () => {
    const index = await extract('src/index.ts');
    expect(index.imports).toEqual([
      { source: './models/user.js', names: [{ imported: '*', local: '*' }], reexport: true, line: 3 },
      { source: './services/order-service', names: [{ imported: 'OrderService', local: 'Orders' }], reexport: true, line: 4 },
      { source: './services/order-service', names: [{ imported: 'OrderId', local: 'OrderId' }], reexport: true, line: 5 },
      {
        source: './cart',
        names: [
          { imported: 'default', local: 'Cart' },
          { imported: 'CART_LIMIT', local: 'CART_LIMIT' },
        ],
        reexport: true,
        line: 6,
      },
      { source: './util/index.js', names: [], moduleAlias: 'util', reexport: true, line: 7 },
      // `import { formatPrice } …; export { formatPrice }`: the re-export goes first, since a
      // local name is bound by its first declaration.
      { source: './util', names: [{ imported: 'formatPrice', local: 'formatPrice' }], reexport: true, line: 12 },
      { source: './util', names: [{ imported: 'formatPrice', local: 'formatPrice' }], line: 8 },
      { source: './components/Button', names: [{ imported: 'default', local: 'Button' }], reexport: true, line: 12 },
      { source: './components/Button', names: [{ imported: 'default', local: 'Button' }], line: 9 },
      { source: './services/order-service', names: [{ imported: 'OrderService', local: 'OrderService' }], line: 10 },
      // The default export and a local export under another name: re-exports from the file itself.
      { source: './index.ts', names: [{ imported: 'createShop', local: 'default' }], reexport: true, line: 22 },
      { source: './index.ts', names: [{ imported: 'VERSION', local: 'version' }], reexport: true, line: 15 },
    ]);
    const cart = await extract('src/cart.ts');
    expect(cart.symbols[1]).toMatchObject({ name: 'cart', kind: 'class', exported: true, signature: 'export default class' });
    expect(cart.imports[1]).toEqual({ source: './cart.ts', names: [{ imported: 'cart', local: 'default' }], reexport: true, line: 6 });
  });
});

describe('typescript import resolution', () => {
  const project = layout([
    'src/app.ts',
    'src/util/index.ts',
    'src/models/user.ts',
    'src/models/user.test.ts',
    'src/legacy.js',
    'src/emitted.js',
    'src/emitted.ts',
    'src/esm.mts',
    'src/types.d.ts',
    'src/components/Button.tsx',
    'src/components/index.tsx',
    'packages/graph/src/index.ts',
    'packages/graph/src/testing/index.ts',
    'apps/web/src/lib/api.ts',
  ]);
  const resolve = (source: string, from = 'src/app.ts') => typescriptLanguage.resolveImport(decl(source), from, project);

  it('resolves relative specifiers with or without an extension, and directory index files', () => {
    expect(resolve('./util')).toEqual({ files: ['src/util/index.ts'] });
    expect(resolve('./util/index.js')).toEqual({ files: ['src/util/index.ts'] });
    expect(resolve('./models/user')).toEqual({ files: ['src/models/user.ts'] });
    expect(resolve('../user', 'src/models/user.test.ts')).toEqual({ files: [] });
    expect(resolve('./user', 'src/models/user.test.ts')).toEqual({ files: ['src/models/user.ts'] });
    expect(resolve('./components/Button')).toEqual({ files: ['src/components/Button.tsx'] });
    expect(resolve('./components')).toEqual({ files: ['src/components/index.tsx'] });
    expect(resolve('./legacy')).toEqual({ files: ['src/legacy.js'] });
    expect(resolve('./types')).toEqual({ files: ['src/types.d.ts'] });
    expect(resolve('./esm.mjs')).toEqual({ files: ['src/esm.mts'] });
    expect(resolve('./missing')).toEqual({ files: [] });
    expect(resolve('../../outside')).toEqual({ files: [] });
  });

  it("follows TypeScript's convention that ./x.js names ./x.ts, but JavaScript keeps the emitted file", () => {
    expect(resolve('./emitted.js')).toEqual({ files: ['src/emitted.ts'] });
    expect(javascriptLanguage.resolveImport(decl('./emitted.js'), 'src/legacy.js', project)).toEqual({ files: ['src/emitted.js'] });
    expect(javascriptLanguage.resolveImport(decl('./emitted'), 'src/legacy.js', project)).toEqual({ files: ['src/emitted.js'] });
    expect(resolve('./emitted')).toEqual({ files: ['src/emitted.ts'] });
  });

  it('names the external package of bare specifiers', () => {
    expect(resolve('react')).toEqual({ files: [], external: 'react' });
    expect(resolve('lodash/fp')).toEqual({ files: [], external: 'lodash' });
    expect(resolve('@nestjs/common')).toEqual({ files: [], external: '@nestjs/common' });
    expect(resolve('@tanstack/query-core/build/lib')).toEqual({ files: [], external: '@tanstack/query-core' });
    expect(resolve('node:fs')).toEqual({ files: [], external: 'node' });
    expect(resolve('node:fs/promises')).toEqual({ files: [], external: 'node' });
    expect(resolve('fs')).toEqual({ files: [], external: 'node' });
    expect(resolve('path')).toEqual({ files: [], external: 'node' });
  });

  it('resolves workspace packages and the @/ alias inside the repository', () => {
    expect(resolve('@knowing/graph')).toEqual({ files: ['packages/graph/src/index.ts'] });
    expect(resolve('@knowing/graph/testing')).toEqual({ files: ['packages/graph/src/testing/index.ts'] });
    expect(resolve('@/util')).toEqual({ files: ['src/util/index.ts'] });
    expect(resolve('@/lib/api', 'apps/web/src/pages/home.tsx')).toEqual({ files: ['apps/web/src/lib/api.ts'] });
    expect(resolve('@/nothing')).toEqual({ files: [] });
  });

  it('resolves the self re-exports that describe default exports to the file itself', () => {
    expect(resolve('./app.ts')).toEqual({ files: ['src/app.ts'] });
  });
});

describe('typescript fixture graph', () => {
  let graph: Graph;

  beforeAll(async () => {
    graph = await buildGraph(shop);
  });

  it('has exactly the expected nodes', () => {
    expect(graph.nodeLines).toEqual(SHOP_NODES);
  });

  for (const [type, expected] of Object.entries(SHOP_EDGES)) {
    it(`has exactly the expected ${type} edges`, () => {
      expect(edgesOf(graph, type)).toEqual(expected);
    });
  }

  it('has no edge types beyond the expected ones and contains/member_of', () => {
    const types = new Set(graph.edgeLines.map((line) => line.split(' ')[0]));
    expect([...types].sort()).toEqual([...Object.keys(SHOP_EDGES), 'contains', 'member_of'].sort());
  });

  it('makes every definition a member of exactly one container, mirrored by contains', () => {
    const contains = new Set(edgesOf(graph, 'contains'));
    const memberOf = edgesOf(graph, 'member_of');
    expect(memberOf).toHaveLength(graph.nodes.filter((node) => node.kind !== 'file' && !node.external).length);
    for (const line of memberOf) {
      const [child, parent] = line.split(' -> ');
      expect(contains.has(`${parent} -> ${child}`)).toBe(true);
      expect(child!.startsWith(parent! + '.')).toBe(true);
    }
  });

  it('resolves through re-export chains, default exports and field types with the right confidence', () => {
    const byName = new Map(graph.nodes.map((node) => [node.id, node.qualifiedName]));
    const find = (type: string, source: string, target: string): GraphEdge | undefined =>
      graph.edges.find((e) => e.type === type && byName.get(e.source) === source && byName.get(e.target) === target);
    // `import createShop from './index'`: a default export declared as a self re-export
    expect(find('calls', 'src/app.ts.main', 'src/index.ts.createShop')?.confidence).toBe(0.9);
    // `export { OrderService as Orders } from …`
    expect(find('calls', 'src/app.ts.main', 'src/services/order-service.ts.OrderService.constructor')?.confidence).toBe(0.9);
    // `export { default as Cart } from './cart'` of an anonymous default class
    expect(find('calls', 'src/app.ts.main', 'src/cart.ts.cart')?.confidence).toBe(0.9);
    // `import Button …; export { Button }`
    expect(find('calls', 'src/app.ts.main', 'src/components/Button.tsx.Button')?.confidence).toBe(0.9);
    // `export { VERSION as version }`
    expect(find('references', 'src/app.ts.main', 'src/index.ts.VERSION')?.confidence).toBe(0.9);
    // `this.repo.save()` through the constructor parameter property's type
    expect(find('calls', 'src/services/order-service.ts.OrderService.place', 'src/services/order-repository.ts.OrderRepository.save')?.confidence).toBe(0.8);
    // `super.load()` skips the class's own override
    expect(find('calls', 'src/services/order-repository.ts.CachedRepository.load', 'src/services/order-repository.ts.OrderRepository.load')?.confidence).toBe(0.9);
    // a local typed by `new Cart()`
    expect(find('calls', 'src/app.ts.main', 'src/cart.ts.cart.add')?.confidence).toBe(0.8);
  });
});

// Runs once the registry lists the TypeScript module: the real pipeline must build the same graph.
const registered = createLanguageRegistry().byId('typescript') === typescriptLanguage;

describe.runIf(registered)('typescript fixture indexed by indexRepository', () => {
  it('writes the same nodes and edges as the resolver alone', async () => {
    const store = createMemoryStore();
    await indexRepository({ root: shop, store, repoId: 'fixture', workers: 0, languages: ['typescript'] });
    const text = await graphText(store);
    expect(text.nodes.map((line) => line.slice('node '.length))).toEqual(SHOP_NODES);
    for (const [type, expected] of Object.entries(SHOP_EDGES)) expect(edgesOfType(text, type)).toEqual(expected);
  });
});
