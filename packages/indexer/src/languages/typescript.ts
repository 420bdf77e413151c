/**
 * TypeScript (and, through {@link createScriptLanguage}, JavaScript) extraction.
 *
 * One walk over the tree with a switch on node type. Declarations and the expressions worth
 * recording are handled by functions that read the few fields they need and recurse through
 * the walk they are given; everything else falls through to a generic descent over named
 * children. A stack of frames carries what the walk needs to attribute and type references:
 * the innermost definition (the edge source), the class `this` stands for, typed locals (for
 * receiver types and shadowing) and type parameters (left out of type hints).
 *
 * This file holds the language modules and the walk; the rest is split by concern. Reading
 * nodes: `script-syntax.ts`, `script-types.ts`. What a file yields: `script-symbols.ts`,
 * `script-references.ts`, `script-modules.ts` (imports and exports). Handlers:
 * `script-declarations.ts`, `script-classes.ts`, `script-variables.ts`, `script-exports.ts`,
 * `script-commonjs.ts`, `script-expressions.ts`; what they share: `script-walk.ts`. Import
 * resolution: `script-resolve.ts`.
 *
 * The core resolves names; this module only records them as written, with two conventions the
 * core's resolver relies on: a default export, and a local exported under another name, are
 * described as re-exports from the file itself (`{ source: './cart.ts', names: [{ imported:
 * 'cart', local: 'default' }], reexport: true }`), and `receiverType` is the type of a
 * qualifier's head (`s.put()` with `s: Store`), never of `this`/`super`, which the core resolves
 * through the enclosing class.
 *
 * The TypeScript and JavaScript grammars share node names (the TS grammar extends the JS one);
 * the differences this module copes with are the class name node (`type_identifier` vs
 * `identifier`), class fields (`public_field_definition.name` vs `field_definition.property`),
 * class heritage (an `extends_clause` vs the bare expression) and where decorators hang.
 */
import type { Node } from 'web-tree-sitter';
import type { GrammarName } from '../parser.js';
import { countSyntaxErrors } from './common.js';
import { onAnonymousClass, visitDecoratorArguments } from './script-classes.js';
import { onExpressionStatement } from './script-commonjs.js';
import { DECLARATION_NODES, visitDeclaration } from './script-declarations.js';
import { finishExports, onExport } from './script-exports.js';
import { onAssignment, onBinary, onCall, onCatch, onForIn, onJsxElement, onMember, onNew, onThrow, useIdentifier } from './script-expressions.js';
import { ModuleTable, onImport } from './script-modules.js';
import { ReferenceTable } from './script-references.js';
import { resolveScriptImport } from './script-resolve.js';
import { SymbolTable } from './script-symbols.js';
import { EMPTY_NODES, ScriptSyntax } from './script-syntax.js';
import type { FieldName } from './script-syntax.js';
import { ScriptTypes } from './script-types.js';
import { onLocalDeclarator } from './script-variables.js';
import { anonymousFrame, childFrame, declareLocal } from './script-walk.js';
import type { Frame, ScriptWalk } from './script-walk.js';
import type { FileExtraction, LanguageModule, NameRef } from './types.js';

export { resolveScriptImport };

// ---------------------------------------------------------------------------------------------
// Module definitions

/**
 * Version of what `extract` returns, shared by the TypeScript and JavaScript modules. Bump it
 * whenever extraction output changes: the core re-extracts cached files of a new version.
 */
export const SCRIPT_EXTRACTION_VERSION = '3';

/** What distinguishes the TypeScript module from the JavaScript one. */
export interface ScriptLanguageOptions {
  readonly id: 'typescript' | 'javascript';
  readonly extensions: readonly string[];
  grammarFor(path: string): GrammarName;
}

/**
 * Build a TS/JS language module. Both languages share extraction and import resolution; only
 * the id, the extensions and the grammar choice differ.
 */
export function createScriptLanguage(options: ScriptLanguageOptions): LanguageModule {
  const { id, extensions, grammarFor } = options;
  return {
    id,
    version: SCRIPT_EXTRACTION_VERSION,
    extensions,
    grammarFor,
    isTestFile: isScriptTestFile,
    selfNames: ['this'],
    superNames: ['super'],
    extract(root, source, path) {
      return new ScriptExtractor(source, path, id, root).run(root);
    },
    resolveImport: resolveScriptImport,
  };
}

/**
 * TypeScript: `.ts`, `.mts`, `.cts` parse with the `typescript` grammar, `.tsx` with `tsx`
 * (the plain TS grammar rejects JSX; the TSX grammar rejects `<T>expr` casts).
 *
 * @example
 * ```ts
 * const parser = await createParser(typescriptLanguage.grammarFor('src/app.tsx'));
 * const extraction = withTree(parser, source, (tree) => typescriptLanguage.extract(tree.rootNode, source, 'src/app.tsx'));
 * ```
 */
export const typescriptLanguage: LanguageModule = createScriptLanguage({
  id: 'typescript',
  extensions: ['.ts', '.mts', '.cts', '.tsx'],
  grammarFor: (path) => (path.toLowerCase().endsWith('.tsx') ? 'tsx' : 'typescript'),
});

/** `*.test.ts`, `*.spec.js`, `*.e2e-spec.ts`, `*_test.ts`, or anything under `__tests__/`, `test/`, `tests/`, `spec/`, `e2e/`. */
export function isScriptTestFile(path: string): boolean {
  return TEST_FILE_NAME.test(path) || TEST_DIRECTORY.test(path);
}

const TEST_FILE_NAME = /(?:\.(?:test|spec|e2e|e2e-spec)|_test)\.[cm]?[jt]sx?$/i;
const TEST_DIRECTORY = /(?:^|\/)(?:__tests__|__test__|tests?|spec|e2e)\//;

// ---------------------------------------------------------------------------------------------
// Tables

/** Node types that are type syntax; met outside a declaration's own signature they become `type` references. */
const TYPE_NODES: ReadonlySet<string> = new Set([
  'type_annotation', 'type_arguments', 'type_identifier', 'nested_type_identifier', 'generic_type', 'union_type',
  'intersection_type', 'array_type', 'tuple_type', 'object_type', 'function_type', 'constructor_type',
  'parenthesized_type', 'conditional_type', 'lookup_type', 'index_type_query', 'readonly_type',
  'type_predicate_annotation', 'asserts_annotation', 'type_parameters', 'optional_type', 'rest_type', 'infer_type',
  'mapped_type_clause', 'type_query', 'literal_type', 'predefined_type', 'template_literal_type', 'this_type',
  'opting_type_annotation', 'omitting_type_annotation', 'adding_type_annotation',
]);

/** Leaves and subtrees with nothing to extract. */
const SKIPPED_NODES: ReadonlySet<string> = new Set([
  'comment', 'string', 'number', 'regex', 'true', 'false', 'null', 'undefined', 'this', 'super',
  'property_identifier', 'private_property_identifier', 'statement_identifier', 'shorthand_property_identifier_pattern',
  'hash_bang_line', 'html_comment', 'jsx_text', 'jsx_closing_element', 'empty_statement', 'debugger_statement',
  'escape_sequence', 'string_fragment', 'meta_property', 'import', 'index_signature', 'accessibility_modifier',
  'override_modifier',
]);

// ---------------------------------------------------------------------------------------------
// Extraction

class ScriptExtractor implements ScriptWalk {
  readonly syntax: ScriptSyntax;
  readonly types: ScriptTypes;
  readonly symbols: SymbolTable;
  readonly references = new ReferenceTable();
  readonly modules: ModuleTable;

  constructor(
    src: string,
    private readonly path: string,
    private readonly language: 'typescript' | 'javascript',
    root: Node,
  ) {
    this.syntax = new ScriptSyntax(src, root);
    this.types = new ScriptTypes(this.syntax);
    this.symbols = new SymbolTable(isScriptTestFile(path));
    this.modules = new ModuleTable(path);
  }

  run(root: Node): FileExtraction {
    const moduleFrame: Frame = {
      def: -1,
      thisType: undefined,
      cls: undefined,
      parent: undefined,
      moduleLevel: true,
      ambient: /\.d\.[cm]?ts$/i.test(this.path),
      locals: undefined,
      typeParams: undefined,
    };
    this.visitChildren(root, moduleFrame);
    finishExports(this);
    return {
      path: this.path,
      language: this.language,
      symbols: this.symbols.frozen(),
      references: this.references.kept((head) => this.modules.binds(head) || this.symbols.topLevel.has(head)),
      imports: this.modules.imports,
      namespace: '',
      syntaxErrors: countSyntaxErrors(root),
    };
  }

  // -------------------------------------------------------------------------------------------
  // The walk

  visitChildren(node: Node, f: Frame): void {
    for (const child of node.namedChildren) if (child) this.visit(child, f);
  }

  visit(node: Node, f: Frame): void {
    const type = node.type;
    if (SKIPPED_NODES.has(type)) return;
    if (TYPE_NODES.has(type)) {
      this.typeReferences(node, f);
      return;
    }
    if (DECLARATION_NODES.has(type)) {
      // A `declare` block exports its declarations whatever this context says.
      visitDeclaration(this, node, f, { exported: f.ambient, isDefault: false, outer: node, decorators: EMPTY_NODES });
      return;
    }
    switch (type) {
      case 'identifier':
      case 'shorthand_property_identifier':
        useIdentifier(this, node, f);
        return;
      case 'import_statement':
        onImport(this, node);
        return;
      case 'export_statement':
        onExport(this, node, f);
        return;
      case 'class':
        onAnonymousClass(this, node, f);
        return;
      case 'expression_statement':
        onExpressionStatement(this, node, f);
        return;
      case 'call_expression':
        onCall(this, node, f);
        return;
      case 'new_expression':
        onNew(this, node, f, 'new');
        return;
      case 'throw_statement':
        onThrow(this, node, f);
        return;
      case 'member_expression':
        onMember(this, node, f);
        return;
      case 'assignment_expression':
        onAssignment(this, node, f);
        return;
      case 'arrow_function':
      case 'function_expression':
      case 'function':
      case 'generator_function':
        this.visitFunction(node, anonymousFrame(node, f), undefined);
        return;
      case 'method_definition':
        // An object-literal method outside any statically named object.
        this.visitFunction(node, childFrame(f, f.def, undefined, f.cls), undefined);
        return;
      case 'jsx_opening_element':
      case 'jsx_self_closing_element':
        onJsxElement(this, node, f);
        return;
      case 'binary_expression':
        onBinary(this, node, f);
        return;
      case 'catch_clause':
        onCatch(this, node, f);
        return;
      case 'for_in_statement':
        onForIn(this, node, f);
        return;
      case 'variable_declarator':
        onLocalDeclarator(this, node, f);
        return;
      case 'pair': {
        const [key, value] = node.namedChildren;
        if (key?.type === 'computed_property_name') this.visitChildren(key, f);
        if (value) this.visit(value, f);
        return;
      }
      case 'decorator':
        visitDecoratorArguments(this, node, f);
        return;
      case 'import_alias':
        return;
      default:
        this.visitChildren(node, f);
    }
  }

  visitField(node: Node, field: FieldName, f: Frame): void {
    const child = this.syntax.field(node, field);
    if (child) this.visit(child, f);
  }

  /** Type syntax outside a declaration's signature: casts, generic arguments, local annotations. */
  typeReferences(node: Node, f: Frame): void {
    if (node.type === 'type_parameters') {
      this.types.declareTypeParameters(node, f);
      return;
    }
    const line = node.startPosition.row + 1;
    for (const ref of this.types.typesOf(node, f)) this.references.add(ref.name, ref.qualifier, 'type', f.def, line, undefined);
  }

  /**
   * Walk a function-like node (declaration, expression, arrow, method) in `frame`: parameters,
   * then the body. Hints from the parameter and return annotations go to `hints` when given.
   */
  visitFunction(node: Node, frame: Frame, hints: NameRef[] | undefined, own?: ReadonlySet<string>): Node[] {
    const parts = this.syntax.functionParts(node);
    if (!own && parts.typeParams) this.types.declareTypeParameters(parts.typeParams, frame);
    const properties = this.visitParameters(parts.params, frame, hints, own);
    if (parts.returnType) {
      if (hints) hints.push(...this.types.typesOf(parts.returnType, frame, own));
      else this.typeReferences(parts.returnType, frame);
    }
    if (parts.body) this.visit(parts.body, frame);
    return properties;
  }

  /**
   * Declare a function's parameters in `frame`; their annotations become `hints` (a
   * definition's signature) or `type` references (a callback's). Default values are walked.
   * Returns the parameter properties of a constructor (`constructor(private s: Store)`).
   */
  visitParameters(params: Node | null, frame: Frame, hints: NameRef[] | undefined, own: ReadonlySet<string> | undefined): Node[] {
    if (!params) return [];
    const properties: Node[] = [];
    if (params.type !== 'formal_parameters') {
      // `x => …`: a single bare parameter.
      if (params.type === 'identifier') declareLocal(frame, this.syntax.text(params), null);
      return properties;
    }
    for (const param of params.namedChildren) {
      if (!param) continue;
      switch (param.type) {
        case 'required_parameter':
        case 'optional_parameter': {
          let pattern: Node | null = null;
          let typeNode: Node | null = null;
          let value: Node | null = null;
          let isProperty = false;
          let afterEquals = false;
          for (const child of param.children) {
            if (!child) continue;
            if (afterEquals) {
              value = child;
              break;
            }
            switch (child.type) {
              case 'accessibility_modifier':
              case 'override_modifier':
              case 'readonly':
                isProperty = true;
                break;
              case 'decorator':
                visitDecoratorArguments(this, child, frame);
                break;
              case 'type_annotation':
                typeNode = child;
                break;
              case '=':
                afterEquals = true;
                break;
              case '?':
              case 'comment':
                break;
              default:
                pattern ??= child;
            }
          }
          const declared = this.types.mainType(typeNode, frame, own) ?? null;
          if (pattern?.type === 'identifier') declareLocal(frame, this.syntax.text(pattern), declared);
          else if (pattern) for (const name of this.syntax.patternNames(pattern)) declareLocal(frame, name, null);
          if (typeNode) {
            if (hints) hints.push(...this.types.typesOf(typeNode, frame, own));
            else this.typeReferences(typeNode, frame);
          }
          if (value) this.visit(value, frame);
          if (isProperty) properties.push(param);
          break;
        }
        case 'identifier':
          declareLocal(frame, this.syntax.text(param), null);
          break;
        case 'assignment_pattern': {
          for (const name of this.syntax.patternNames(param)) declareLocal(frame, name, null);
          this.visitField(param, 'right', frame);
          break;
        }
        default:
          for (const name of this.syntax.patternNames(param)) declareLocal(frame, name, null);
      }
    }
    return properties;
  }
}
