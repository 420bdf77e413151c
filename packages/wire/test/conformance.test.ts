/**
 * The formatter conformance kit run against the five built-in formats. The exact formats
 * (json, gcf, gcb) also read every name back; xml and markdown shorten and escape text for
 * display, so they are checked without a decoder.
 */
import { decodeGcb, decodeGcf, gcbFormat, gcfFormat, jsonFormat, markdownFormat, xmlFormat } from '../src/index.js';
import { testFormatter } from '../src/testing.js';

testFormatter(xmlFormat);
testFormatter(markdownFormat);
testFormatter(jsonFormat, {
  decode: (output) => (JSON.parse(output as string) as { symbols: { qualified_name: string }[] }).symbols.map((s) => s.qualified_name),
});
testFormatter(gcfFormat, {
  decode: (output) => {
    const document = decodeGcf(output as string);
    if (document.mode !== 'pack') throw new Error(`expected a full gcf pack, got ${document.mode}`);
    return document.nodes.flatMap((node) => (node.ref ? [] : [node.qualifiedName]));
  },
});
testFormatter(gcbFormat, { decode: (output) => decodeGcb(output as Uint8Array).symbols.map((s) => s.qualifiedName) });
