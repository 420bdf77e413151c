// Preloaded with `node --import` by the start-up tests: appends the URL of every module the
// process resolves to the file named by KNOWING_LOAD_TRACE, one per line. It registers itself as
// the module hooks (the resolve export below runs on the loader's thread). Adapted from
// packages/cli/test/load-trace.mjs.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

let traceFile;

export function initialize(data) {
  traceFile = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (traceFile) appendFileSync(traceFile, `${resolved.url}\n`);
  return resolved;
}

if (process.env.KNOWING_LOAD_TRACE) register(import.meta.url, { data: { file: process.env.KNOWING_LOAD_TRACE } });
