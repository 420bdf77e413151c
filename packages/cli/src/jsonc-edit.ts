/**
 * Edits of one member in a JSON or JSONC document (an agent's settings file) that leave
 * everything else byte for byte as it was: other members, comments, trailing commas, the
 * file's indentation and line endings. jsonc-parser reads the document; the edits are made
 * here, because its own `modify` re-formats whole lines around an edit (a sibling written on
 * one line is spread over several) and takes comments along when it removes a member.
 */
import { applyEdits, modify, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';

export class JsoncEditError extends Error {
  override readonly name = 'JsoncEditError';
}

interface Style {
  readonly unit: string;
  readonly eol: string;
}

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent === undefined) return { unit: '  ', eol };
  if (indent.startsWith('\t')) return { unit: '\t', eol };
  return { unit: ' '.repeat(Math.min(8, indent.length)), eol };
}

/** The whitespace before the first non-blank character of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether only spaces and tabs stand between the start of its line and `offset`. */
function firstOnLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/**
 * `value` as JSON in the file's style, its lines after the first indented by `indent`; arrays
 * of plain values stay on one line (`"args": ["mcp", "--repo", "/src/shop"]`).
 */
function render(value: unknown, indent: string, style: Style): string {
  const inner = indent + style.unit;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `[${style.eol}${value.map((item) => inner + render(item, inner, style)).join(`,${style.eol}`)}${style.eol}${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{${style.eol}${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${render(item, inner, style)}`).join(`,${style.eol}`)}${style.eol}${indent}}`;
  }
  return JSON.stringify(value);
}

/** `value` as JSON with two-space indentation, arrays of plain values on one line. */
export function formatJson(value: unknown): string {
  return render(value, '', { unit: '  ', eol: '\n' });
}

/**
 * After a member's value: the offset of a comma following it (if any, past blanks and comments),
 * and the end of its line when only a comma, blanks and comments follow on that line.
 */
function tail(text: string, end: number): { comma: number | undefined; lineEnd: number | undefined } {
  let i = end;
  let comma: number | undefined;
  let lineEnd: number | undefined;
  const skipBlanks = (): void => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  skipBlanks();
  if (text[i] === ',') comma = i++;
  skipBlanks();
  if (text.startsWith('//', i)) {
    const newline = text.indexOf('\n', i);
    i = newline === -1 ? text.length : newline;
  } else if (text.startsWith('/*', i)) {
    const close = text.indexOf('*/', i + 2);
    if (close !== -1 && !text.slice(i, close).includes('\n')) i = close + 2;
    skipBlanks();
  }
  if (i >= text.length || text[i] === '\n' || text[i] === '\r') lineEnd = i;
  if (comma === undefined) {
    // A comma on a later line ("value\n  , next" is legal): find it past blanks and comments.
    let j = end;
    for (;;) {
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text.startsWith('//', j)) j = text.indexOf('\n', j) === -1 ? text.length : text.indexOf('\n', j);
      else if (text.startsWith('/*', j)) j = text.indexOf('*/', j + 2) === -1 ? text.length : text.indexOf('*/', j + 2) + 2;
      else break;
    }
    if (text[j] === ',') comma = j;
  }
  return { comma, lineEnd };
}

function member(object: Node, key: string): Node[] {
  return (object.children ?? []).filter((p) => p.children?.[0]?.value === key);
}

interface Edit {
  readonly offset: number;
  readonly length: number;
  readonly content: string;
}

/** Insert `"key": value` as the last member of `object`. */
function insertMember(text: string, object: Node, key: string, value: unknown, style: Style): Edit[] {
  const members = object.children ?? [];
  const closing = object.offset + object.length - 1;
  const objectIndent = lineIndent(text, object.offset);
  if (members.length === 0) {
    const indent = objectIndent + style.unit;
    const inside = text.slice(object.offset + 1, closing);
    const entry = `${JSON.stringify(key)}: ${render(value, indent, style)}`;
    if (/^\s*$/.test(inside)) {
      return [{ offset: object.offset + 1, length: inside.length, content: `${style.eol}${indent}${entry}${style.eol}${lineIndent(text, closing)}` }];
    }
    return [{ offset: object.offset + 1, length: 0, content: `${style.eol}${indent}${entry}` }];
  }
  const last = members[members.length - 1]!;
  const lastEnd = last.offset + last.length;
  const after = tail(text, lastEnd);
  if (firstOnLine(text, last.offset) && after.lineEnd !== undefined) {
    const indent = lineIndent(text, last.offset);
    const entry = `${JSON.stringify(key)}: ${render(value, indent, style)}`;
    const edits: Edit[] = [];
    if (after.comma === undefined) edits.push({ offset: lastEnd, length: 0, content: ',' });
    // A trailing comma after the last member stays the file's style.
    edits.push({ offset: after.lineEnd, length: 0, content: `${style.eol}${indent}${entry}${after.comma !== undefined ? ',' : ''}` });
    return edits;
  }
  // Members on one line ({"a": 1, "b": 2}): add ours the same way.
  return [{ offset: lastEnd, length: 0, content: `${after.comma === undefined ? ',' : ''} ${JSON.stringify(key)}: ${JSON.stringify(value)}` }];
}

/** Remove the member `property` of `object`, with its line when it has lines of its own. */
function removeMember(text: string, object: Node, property: Node): Edit[] {
  const members = object.children ?? [];
  const index = members.indexOf(property);
  const end = property.offset + property.length;
  const after = tail(text, end);
  if (firstOnLine(text, property.offset) && after.lineEnd !== undefined) {
    const lineStart = text.lastIndexOf('\n', property.offset - 1) + 1;
    let stop = after.lineEnd;
    if (text[stop] === '\r') stop++;
    if (text[stop] === '\n') stop++;
    const edits: Edit[] = [{ offset: lineStart, length: stop - lineStart, content: '' }];
    // Removing the last member: the one before it must not keep a comma this one did not have.
    const previous = members[index - 1];
    if (index === members.length - 1 && after.comma === undefined && previous) {
      const previousComma = tail(text, previous.offset + previous.length).comma;
      if (previousComma !== undefined && previousComma < lineStart) edits.push({ offset: previousComma, length: 1, content: '' });
    }
    return edits;
  }
  const path = [] as (string | number)[];
  for (let node: Node | undefined = property; node?.parent; node = node.parent.parent) {
    if (node.type === 'property') path.unshift(node.children![0]!.value as string);
  }
  return modify(text, path, undefined, {});
}

function apply(text: string, edits: readonly Edit[]): string {
  return applyEdits(text, [...edits]);
}

/** The document's root object, or an error saying what is wrong with the file. */
function rootOf(text: string, file: string): Node | undefined {
  if (text.trim() === '') return undefined;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new JsoncEditError(`${file} is not valid JSON (${printParseErrorCode(first.error)} on line ${line})`);
  }
  if (root === undefined) return undefined;
  if (root.type !== 'object') throw new JsoncEditError(`${file} does not hold a JSON object`);
  return root;
}

function objectMember(root: Node, key: string, file: string): Node | undefined {
  const found = member(root, key);
  const value = found[found.length - 1]?.children?.[1];
  if (value !== undefined && value.type !== 'object') throw new JsoncEditError(`"${key}" in ${file} is not an object`);
  return value;
}

/** The value of `container.name` in the document, if there is one. */
export function readMember(text: string, container: string, name: string, file: string): unknown {
  const root = rootOf(text, file);
  const object = root && objectMember(root, container, file);
  const found = object ? member(object, name) : [];
  const node = found[found.length - 1]?.children?.[1];
  if (node === undefined) return undefined;
  return JSON.parse(text.slice(node.offset, node.offset + node.length).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')) as unknown;
}

/**
 * Set `container.name` to `value` (added as the last member, or replacing what is there; a
 * name given twice ends up once). Returns the new text.
 */
export function setMember(text: string, container: string, name: string, value: unknown, file: string): string {
  const style = styleOf(text);
  const root = rootOf(text, file);
  if (root === undefined) {
    const leading = text.trim() === '' ? '' : text.replace(/\s*$/, style.eol);
    return `${leading}${render({ [container]: { [name]: value } }, '', style)}${style.eol}`;
  }
  const object = objectMember(root, container, file);
  if (object === undefined) return apply(text, insertMember(text, root, container, { [name]: value }, style));
  const found = member(object, name);
  if (found.length === 0) return apply(text, insertMember(text, object, name, value, style));
  // Drop duplicates (the last one wins when the file is read), then replace the value.
  let current = text;
  for (let i = found.length - 1; i >= 1; i--) {
    const again = objectMember(rootOf(current, file)!, container, file)!;
    current = apply(current, removeMember(current, again, member(again, name)[0]!));
  }
  const property = member(objectMember(rootOf(current, file)!, container, file)!, name)[0]!;
  const valueNode = property.children![1]!;
  const indent = lineIndent(current, property.offset);
  // A value someone wrote on one line is replaced by one on one line.
  const oneLine = !current.slice(valueNode.offset, valueNode.offset + valueNode.length).includes('\n');
  return apply(current, [{ offset: valueNode.offset, length: valueNode.length, content: oneLine ? JSON.stringify(value) : render(value, indent, style) }]);
}

/**
 * Remove `container.name` (every copy), then `container` itself when that leaves it empty.
 * Returns the new text, or null when the document is left empty (`{}`, no comments).
 */
export function deleteMember(text: string, container: string, name: string, file: string): string | null {
  let current = text;
  for (;;) {
    const root = rootOf(current, file);
    const object = root && objectMember(root, container, file);
    const found = object ? member(object, name) : [];
    if (!root || !object || found.length === 0) break;
    current = apply(current, removeMember(current, object, found[0]!));
  }
  const root = rootOf(current, file);
  const object = root && objectMember(root, container, file);
  if (root && object && (object.children ?? []).length === 0 && !/\/[/*]/.test(current.slice(object.offset, object.offset + object.length))) {
    current = apply(current, removeMember(current, root, object.parent!));
  }
  return /^\s*\{\s*\}\s*$/.test(current) ? null : current;
}
