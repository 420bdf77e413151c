import { describe, expect, it } from 'vitest';
import { csharpLanguage } from '../src/languages/csharp.js';
import { goLanguage } from '../src/languages/go.js';
import { javaLanguage } from '../src/languages/java.js';
import { javascriptLanguage } from '../src/languages/javascript.js';
import { pythonLanguage } from '../src/languages/python.js';
import { rubyLanguage } from '../src/languages/ruby.js';
import { rustLanguage } from '../src/languages/rust.js';
import { typescriptLanguage } from '../src/languages/typescript.js';
import type { LanguageModule } from '../src/languages/types.js';
import { createParser, withTree } from '../src/parser.js';

/** Each symbol's signature by qualified name (scope and name joined with `.`). */
async function signatures(language: LanguageModule, file: string, source: string): Promise<Record<string, string>> {
  const parser = await createParser(language.grammarFor(file));
  const extraction = withTree(parser, language.parseText?.(source) ?? source, (tree) => language.extract(tree.rootNode, source, file));
  return Object.fromEntries(extraction.symbols.map((s) => [[...s.scope, s.name].join('.'), s.signature]));
}

describe('signatures leave comments out', () => {
  it('python: a comment after the colon, between parameters, between bases, after an opening brace; `#` in a string stays', async () => {
    const source = [
      'def register(client, app):  # renders without template errors',
      '    pass',
      '',
      '',
      'def teardown(',
      '    self,',
      '    exc: BaseException | None = _sentinel,  # type: ignore[assignment]',
      ') -> None:',
      '    pass',
      '',
      '',
      'async def create_items(author_id: str, items: list[Item]):  # (5)',
      '    pass',
      '',
      '',
      'class Settings(Base,  # the defaults',
      '               Mixin):',
      '    pass',
      '',
      '',
      'DEFAULTS = {  # every option',
      '    "debug": False,',
      '}',
      'SEPARATOR = "# not a comment"',
      '',
    ].join('\n');
    expect(await signatures(pythonLanguage, 'app.py', source)).toEqual({
      register: 'def register(client, app)',
      // The line breaks after `(` and `,` still read as spaces, as without a comment.
      teardown: 'def teardown( self, exc: BaseException | None = _sentinel, ) -> None',
      create_items: 'async def create_items(author_id: str, items: list[Item])',
      Settings: 'class Settings(Base, Mixin)',
      DEFAULTS: 'DEFAULTS = {',
      SEPARATOR: 'SEPARATOR = "# not a comment"',
    });
  });

  it('rust: doc comments on the fields of an enum variant, block comments around parameters; a string of slashes stays', async () => {
    const source = [
      "pub enum Command<'a> {",
      '    /// Publish a crate',
      '    Publish {',
      '        /// The name of the crate',
      "        name: &'a str,",
      "        /* The version */ vers: &'a str,",
      '    },',
      '}',
      '',
      'pub struct Pair(/** left */ pub u8, u8);',
      '',
      'pub const SEPARATOR: &str = "/////// // /* not a comment */";',
      '',
      'pub fn publish(name: &str, // the crate',
      '               vers: &str /* semver */) -> bool {',
      '    true',
      '}',
      '',
    ].join('\n');
    expect(await signatures(rustLanguage, 'src/lib.rs', source)).toEqual({
      Command: "pub enum Command<'a>",
      'Command.Publish': "Publish { name: &'a str, vers: &'a str, }",
      Pair: 'pub struct Pair(pub u8, u8)',
      SEPARATOR: 'pub const SEPARATOR: &str = "/////// // /* not a comment */"',
      publish: 'pub fn publish(name: &str, vers: &str) -> bool',
    });
  });

  it('go: comments inside an inline struct type, between parameters and after a value; `//` in a string stays', async () => {
    const source = [
      'package config',
      '',
      'type Config struct {',
      '\tTLS *struct { // Present this instance\'s managed remote identity',
      '\t\tUseServerIdentity bool /* when set */',
      '\t}',
      '}',
      '',
      'const Separator = "// not /* a comment" // the line between sections',
      '',
      'func Serve(addr string, // where to listen',
      '\thandler Handler) error {',
      '\treturn nil',
      '}',
      '',
    ].join('\n');
    expect(await signatures(goLanguage, 'config.go', source)).toEqual({
      Config: 'type Config struct',
      'Config.TLS': 'TLS *struct { UseServerIdentity bool }',
      Separator: 'const Separator = "// not /* a comment"',
      Serve: 'func Serve(addr string, handler Handler) error',
    });
  });

  it('typescript: comments between parameters and inside an object type; `//` in strings and regexes stays', async () => {
    const source = [
      'export function serve(port: number, // where to listen',
      "  host = '//localhost' /* the default */): void {}",
      '',
      'export type Shape = {',
      '  /** Length of a side. */',
      '  side: number; // in pixels',
      '};',
      '',
      "export const HOME = 'http://example.com/*'; // the home page",
      '',
      'export const slashes = /\\/\\/+/; // repeated slashes',
      '',
    ].join('\n');
    expect(await signatures(typescriptLanguage, 'src/serve.ts', source)).toEqual({
      serve: "export function serve(port: number, host = '//localhost'): void",
      Shape: 'export type Shape = { side: number; }',
      HOME: "export const HOME = 'http://example.com/*'",
      slashes: 'export const slashes = /\\/\\/+/',
    });
  });

  it('javascript: a block comment between two words leaves a space; one next to punctuation leaves none', async () => {
    const source = ['export function area(width/* px */, height /* px */) {', '  return width * height;', '}', ''].join('\n');
    expect(await signatures(javascriptLanguage, 'src/area.js', source)).toEqual({
      area: 'export function area(width, height)',
    });
    const words = ['export async/* later */function load() {}', ''].join('\n');
    expect(await signatures(javascriptLanguage, 'src/load.js', words)).toEqual({
      load: 'export async function load()',
    });
  });

  it('java: a javadoc and a line comment inside record components, a comment between parameters; `//` in a string stays', async () => {
    const source = [
      'package shapes;',
      '',
      'public record Point(/** Horizontal. */ int x, // vertical next',
      '    int y) {',
      '  public static final String SEP = "// not /* a comment"; // the separator',
      '',
      '  public int add(int dx, /* unused */ int dy) {',
      '    return x + dx;',
      '  }',
      '}',
      '',
    ].join('\n');
    expect(await signatures(javaLanguage, 'src/main/java/shapes/Point.java', source)).toEqual({
      Point: 'public record Point(int x, int y)',
      'Point.x': 'int x',
      'Point.y': 'int y',
      'Point.SEP': 'public static final String SEP = "// not /* a comment"',
      'Point.add': 'public int add(int dx, int dy)',
    });
  });

  it('csharp: an XML doc comment inside record parameters, trailing comments, a comment between parameters; `//` in a string stays', async () => {
    const source = [
      'namespace Shapes;',
      '',
      'public record Point(',
      '    /// <summary>Horizontal.</summary>',
      '    int X, /* vertical */ int Y)',
      '{',
      '}',
      '',
      'public record Size(int Width, int Height); // trailing',
      '',
      'public class Service // the service',
      '{',
      '    public const string Sep = "// not /* a comment"; // the separator',
      '',
      '    public void Run(int a, /* unused */ int b) {}',
      '}',
      '',
    ].join('\n');
    expect(await signatures(csharpLanguage, 'src/Shapes/Point.cs', source)).toEqual({
      Point: 'public record Point( int X, int Y)',
      'Point.X': 'int X',
      'Point.Y': 'int Y',
      Size: 'public record Size(int Width, int Height)',
      'Size.Width': 'int Width',
      'Size.Height': 'int Height',
      Service: 'public class Service',
      'Service.Sep': 'public const string Sep = "// not /* a comment"',
      'Service.Run': 'public void Run(int a, int b)',
    });
  });

  it('ruby: line and =begin comments between parameters, a comment in a Struct member list and after a brace; `#` in strings stays', async () => {
    const source = [
      'class Service < Base # the service',
      '  SEPARATOR = "# not a comment" # the separator',
      '  DEFAULTS = { # every option',
      '    debug: false,',
      '  }.freeze',
      '',
      '  Point = Struct.new(:x, # horizontal',
      '                     :y) do',
      '  end',
      '',
      '  def run(a, # first',
      '=begin',
      'the second parameter',
      '=end',
      '          b = "#{a}#")',
      '  end',
      'end',
      '',
    ].join('\n');
    expect(await signatures(rubyLanguage, 'lib/service.rb', source)).toEqual({
      Service: 'class Service < Base',
      'Service.SEPARATOR': 'SEPARATOR = "# not a comment"',
      'Service.DEFAULTS': 'DEFAULTS = {',
      // A Struct's signature is its first line, shared by its members.
      Point: 'Point = Struct.new(:x,',
      'Service::Point.x': 'Point = Struct.new(:x,',
      'Service::Point.y': 'Point = Struct.new(:x,',
      'Service.run': 'def run(a, b = "#{a}#")',
    });
  });

  it('bumped the extraction versions, so cached extractions whose signatures carry comments are redone', () => {
    expect(pythonLanguage.version).toBe('2');
    expect(typescriptLanguage.version).toBe('3');
    expect(javascriptLanguage.version).toBe('3');
    expect(goLanguage.version).toBe('2');
    expect(javaLanguage.version).toBe('2');
    expect(csharpLanguage.version).toBe('3');
    expect(rubyLanguage.version).toBe('2');
  });
});
