import { GCF_KIND_ABBREVIATIONS } from './codes.js';
import { badFormat } from './errors.js';
import { decodeToken } from './gcf-token.js';
import type {
  EdgeStatus,
  GcfAddedLine,
  GcfCode,
  GcfDeltaDocument,
  GcfDocument,
  GcfEdgeLine,
  GcfNamedEdge,
  GcfNodeLine,
  GcfPackDocument,
  GcfUnchangedDocument,
} from './types.js';

const KIND_BY_ABBREVIATION = new Map<string, string>(Object.entries(GCF_KIND_ABBREVIATIONS).map(([kind, abbreviation]) => [abbreviation, kind]));
const NUMBER = /^(?:-?(?:\d+(?:\.\d+)?(?:e[+-]\d+)?|Infinity)|NaN)$/;
const UNSIGNED = /^\d+$/;

function unsigned(raw: string | undefined, what: string): number {
  if (raw === undefined || !UNSIGNED.test(raw)) throw badFormat(`${what} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw badFormat(`${what} ${raw} is too large`);
  return value;
}

function score(raw: string, line: number): number {
  if (!NUMBER.test(raw)) throw badFormat(`line ${line}: score ${JSON.stringify(raw)} is not a number`);
  return Number(raw);
}

function kind(raw: string, line: number): string {
  return KIND_BY_ABBREVIATION.get(raw) ?? decodeToken(raw, `line ${line}: kind`);
}

function provenance(raw: string, line: number): string | undefined {
  const value = decodeToken(raw, `line ${line}: provenance`);
  return value === '' ? undefined : value;
}

interface Line {
  readonly number: number;
  readonly text: string;
}

/** Split into lines (LF, optional CR before it), dropping blank and `# ` comment lines. */
function linesOf(text: string): Line[] {
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  const out: Line[] = [];
  raw.forEach((value, i) => {
    const line = value.endsWith('\r') ? value.slice(0, -1) : value;
    if (line === '' || line === '#' || line.startsWith('# ')) return;
    out.push({ number: i + 1, text: line });
  });
  return out;
}

function parseHeader(line: Line): Map<string, string> {
  const [magic, ...fields] = line.text.split(' ');
  if (magic !== 'GCF') throw badFormat('not a GCF document: the first line must start with "GCF "');
  const header = new Map<string, string>();
  for (const field of fields) {
    const eq = field.indexOf('=');
    if (eq <= 0) throw badFormat(`header field ${JSON.stringify(field)} is not key=value`);
    const key = field.slice(0, eq);
    if (header.has(key)) throw badFormat(`header repeats ${key}`);
    header.set(key, field.slice(eq + 1));
  }
  return header;
}

function required(header: Map<string, string>, key: string): string {
  const value = header.get(key);
  if (value === undefined) throw badFormat(`header lacks ${key}=`);
  return value;
}

/** Sections: `## name` lines and the lines under each; unknown sections are kept for the caller to skip. */
function sections(lines: readonly Line[]): { name: string; number: number; lines: Line[] }[] {
  const out: { name: string; number: number; lines: Line[] }[] = [];
  for (const line of lines) {
    if (line.text.startsWith('## ')) out.push({ name: line.text.slice(3), number: line.number, lines: [] });
    else {
      const current = out.at(-1);
      if (!current) throw badFormat(`line ${line.number}: content before the first section`);
      current.lines.push(line);
    }
  }
  return out;
}

function distanceOf(section: string): number | undefined {
  if (section === 'targets') return 0;
  if (section === 'related') return 1;
  if (section === 'extended') return 2;
  const match = /^distance_(\d+)$/.exec(section);
  if (!match) return undefined;
  const distance = unsigned(match[1], `section ${section}`);
  if (distance < 3) throw badFormat(`section ${section} must be written as targets, related or extended`);
  return distance;
}

function fullNode(text: string, line: number): GcfAddedLine | undefined {
  const match = /^@(\d+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+)(?: ([^ ]+))?$/.exec(text);
  if (!match) return undefined;
  const value = provenance(match[5]!, line);
  const where = match[6] === undefined ? '' : decodeToken(match[6], `line ${line}: location`);
  return {
    id: unsigned(match[1], `line ${line}: id`),
    kind: kind(match[2]!, line),
    qualifiedName: decodeToken(match[3]!, `line ${line}: qualified name`),
    score: score(match[4]!, line),
    ...(value === undefined ? {} : { provenance: value }),
    ...(where === '' ? {} : { location: where }),
  };
}

/** Code lines (`|…`) following a node line, from `start`; returns the code and the next index. */
function codeAt(lines: readonly Line[], start: number): { code?: GcfCode; next: number } {
  let end = start;
  while (end < lines.length && lines[end]!.text.startsWith('|')) end++;
  if (end === start) return { next: start };
  const body = lines.slice(start, end).map((line) => line.text.slice(1));
  const truncated = body.at(-1) === '…';
  if (truncated) body.pop();
  return { code: { text: body.join('\n'), truncated }, next: end };
}

function decodePack(header: Map<string, string>, body: readonly Line[]): GcfPackDocument {
  const profile = header.get('profile');
  if (profile !== 'graph') throw badFormat(`unknown GCF profile ${JSON.stringify(profile)}; this decoder reads profile=graph`);
  const session = header.get('session') === 'true';
  const nodes: GcfNodeLine[] = [];
  const edges: GcfEdgeLine[] = [];
  const ids = new Set<number>();
  let edgesSeen = false;
  for (const section of sections(body)) {
    const edgeMatch = /^edges \[(\d+)\]$/.exec(section.name);
    if (edgeMatch) {
      if (edgesSeen) throw badFormat(`line ${section.number}: a second edges section`);
      edgesSeen = true;
      const count = unsigned(edgeMatch[1], `line ${section.number}: edge count`);
      if (count !== section.lines.length) throw badFormat(`line ${section.number}: announces ${count} edges, holds ${section.lines.length}`);
      for (const line of section.lines) {
        const match = /^@(\d+)<@(\d+) ([^ ]+)(?: (added|removed))?$/.exec(line.text);
        if (!match) throw badFormat(`line ${line.number}: not an edge line (@TARGET<@SOURCE TYPE [STATUS])`);
        const target = unsigned(match[1], `line ${line.number}: target`);
        const source = unsigned(match[2], `line ${line.number}: source`);
        if (!ids.has(target) || !ids.has(source)) throw badFormat(`line ${line.number}: edge refers to an id no node line declares`);
        const status = match[4] as EdgeStatus | undefined;
        edges.push({ target, source, type: decodeToken(match[3]!, `line ${line.number}: edge type`), ...(status ? { status } : {}) });
      }
      continue;
    }
    const distance = distanceOf(section.name);
    if (distance === undefined) continue; // a section from a newer writer: skipped
    if (edgesSeen) throw badFormat(`line ${section.number}: node section after the edges section`);
    for (let i = 0; i < section.lines.length; i++) {
      const line = section.lines[i]!;
      const ref = /^@(\d+)(?: #.*)?$/.exec(line.text);
      let node: GcfNodeLine;
      if (ref) {
        if (!session) throw badFormat(`line ${line.number}: a reference outside a session document`);
        node = { ref: true, id: unsigned(ref[1], `line ${line.number}: id`), distance };
      } else {
        const full = fullNode(line.text, line.number);
        if (!full) throw badFormat(`line ${line.number}: not a node line (@ID KIND QNAME SCORE PROVENANCE LOCATION)`);
        const { code, next } = codeAt(section.lines, i + 1);
        i = next - 1;
        node = { ref: false, distance, ...full, ...(code ? { code } : {}) };
      }
      if (ids.has(node.id)) throw badFormat(`line ${line.number}: id ${node.id} declared twice`);
      ids.add(node.id);
      nodes.push(node);
    }
  }
  const symbols = unsigned(required(header, 'symbols'), 'symbols=');
  if (symbols !== nodes.length) throw badFormat(`header announces ${symbols} symbols, the body holds ${nodes.length}`);
  const edgeCount = header.has('edges') ? unsigned(header.get('edges'), 'edges=') : edges.length;
  if (edgeCount !== edges.length) throw badFormat(`header announces ${edgeCount} edges, the body holds ${edges.length}`);
  const packRoot = header.get('pack_root');
  return {
    mode: 'pack',
    tool: decodeToken(required(header, 'tool'), 'tool'),
    budget: header.has('budget') ? unsigned(header.get('budget'), 'budget=') : 0,
    tokens: header.has('tokens') ? unsigned(header.get('tokens'), 'tokens=') : 0,
    symbols,
    session,
    ...(packRoot === undefined ? {} : { packRoot: decodeToken(packRoot, 'pack_root') }),
    nodes,
    edges,
  };
}

function namedEdges(lines: readonly Line[]): GcfNamedEdge[] {
  return lines.map((line) => {
    const match = /^([^ ]+) -> ([^ ]+) ([^ ]+)$/.exec(line.text);
    if (!match) throw badFormat(`line ${line.number}: not a delta edge line (SOURCE -> TARGET TYPE)`);
    return {
      source: decodeToken(match[1]!, `line ${line.number}: source`),
      target: decodeToken(match[2]!, `line ${line.number}: target`),
      type: decodeToken(match[3]!, `line ${line.number}: edge type`),
    };
  });
}

function decodeDelta(header: Map<string, string>, body: readonly Line[]): GcfDeltaDocument {
  const savings = /^(-?\d+)%$/.exec(required(header, 'savings'));
  if (!savings) throw badFormat('savings= must be a whole percentage such as 42%');
  const document = {
    mode: 'delta' as const,
    tool: decodeToken(required(header, 'tool'), 'tool'),
    baseRoot: decodeToken(required(header, 'base_root'), 'base_root'),
    newRoot: decodeToken(required(header, 'new_root'), 'new_root'),
    tokens: unsigned(required(header, 'tokens'), 'tokens='),
    savings: Number(savings[1]),
    removed: [] as { kind: string; qualifiedName: string }[],
    added: [] as GcfAddedLine[],
    edgesRemoved: [] as GcfNamedEdge[],
    edgesAdded: [] as GcfNamedEdge[],
  };
  const seen = new Set<string>();
  for (const section of sections(body)) {
    if (seen.has(section.name)) throw badFormat(`line ${section.number}: section ${section.name} repeated`);
    seen.add(section.name);
    switch (section.name) {
      case 'removed':
        for (const line of section.lines) {
          const match = /^([^ ]+) ([^ ]+)$/.exec(line.text);
          if (!match) throw badFormat(`line ${line.number}: not a removed line (KIND QNAME)`);
          document.removed.push({ kind: kind(match[1]!, line.number), qualifiedName: decodeToken(match[2]!, `line ${line.number}: qualified name`) });
        }
        break;
      case 'added':
        for (const line of section.lines) {
          const node = fullNode(line.text, line.number);
          if (!node) throw badFormat(`line ${line.number}: not an added line (@ID KIND QNAME SCORE PROVENANCE LOCATION)`);
          document.added.push(node);
        }
        break;
      case 'edges_removed':
        document.edgesRemoved.push(...namedEdges(section.lines));
        break;
      case 'edges_added':
        document.edgesAdded.push(...namedEdges(section.lines));
        break;
      default: // a section from a newer writer: skipped
    }
  }
  return document;
}

function decodeUnchanged(header: Map<string, string>, body: readonly Line[]): GcfUnchangedDocument {
  const first = body[0];
  if (first) throw badFormat(`line ${first.number}: an unchanged answer has no body`);
  return {
    mode: 'unchanged',
    tool: decodeToken(required(header, 'tool'), 'tool'),
    packRoot: decodeToken(required(header, 'pack_root'), 'pack_root'),
    symbols: unsigned(required(header, 'symbols'), 'symbols='),
  };
}

/**
 * Parse a GCF document — a full pack, a delta or an unchanged answer — as docs/formats.md
 * specifies. Unknown header fields and sections are skipped; anything else malformed throws
 * a KnowingError with code BAD_FORMAT.
 *
 * @example
 * ```ts
 * const doc = decodeGcf(gcfFormat.encode(pack) as string);
 * if (doc.mode === 'pack') doc.nodes.map((n) => n.id);
 * ```
 */
export function decodeGcf(text: string): GcfDocument {
  if (typeof text !== 'string') throw badFormat('a GCF document is text');
  const lines = linesOf(text);
  const first = lines[0];
  if (!first || first.number !== 1) throw badFormat('not a GCF document: the first line must start with "GCF "');
  const header = parseHeader(first);
  const body = lines.slice(1);
  if (header.get('delta') === 'true') return decodeDelta(header, body);
  if (header.get('unchanged') === 'true') return decodeUnchanged(header, body);
  return decodePack(header, body);
}
