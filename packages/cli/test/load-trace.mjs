// Preloaded with `node --import` by the start-up tests: appends the URL of every module the
// process resolves to the file named by KNOWING_LOAD_TRACE, one per line (a bundle the CLI
// compiles itself, through its code cache, too), and a `worker:` line for each worker thread it
// starts. It registers itself as the module hooks (the resolve export below runs on the loader's
// thread). CommonJS modules loaded with require() (which these hooks do not see on Node 20) are
// appended when the process exits, from the require cache. A `read:` line names each WebAssembly
// file the process reads (the parser runtime and the grammars, whose JavaScript is bundled).
import fs, { appendFileSync } from 'node:fs';
import { createRequire, register, syncBuiltinESMExports } from 'node:module';
import { isAbsolute } from 'node:path';
import vm from 'node:vm';
import workerThreads from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

let traceFile;

export function initialize(data) {
  traceFile = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (traceFile) appendFileSync(traceFile, `${resolved.url}\n`);
  return resolved;
}

const trace = process.env.KNOWING_LOAD_TRACE;
if (trace) {
  register(import.meta.url, { data: { file: trace } });
  const required = createRequire(import.meta.url).cache;
  const { Worker } = workerThreads;
  workerThreads.Worker = class TracedWorker extends Worker {
    constructor(...args) {
      appendFileSync(trace, 'worker:\n');
      super(...args);
    }
  };
  const { Script } = vm;
  vm.Script = class TracedScript extends Script {
    constructor(source, options) {
      if (typeof options?.filename === 'string' && isAbsolute(options.filename)) appendFileSync(trace, `${pathToFileURL(options.filename).href}\n`);
      super(source, options);
    }
  };
  const noteRead = (path) => {
    const file = path instanceof URL ? path.href : typeof path === 'string' ? pathToFileURL(path).href : '';
    if (file.endsWith('.wasm')) appendFileSync(trace, `read:${file}\n`);
  };
  const { readFileSync, readFile } = fs;
  const readFilePromise = fs.promises.readFile;
  fs.readFileSync = function tracedReadFileSync(path, ...rest) {
    noteRead(path);
    return readFileSync.call(this, path, ...rest);
  };
  fs.readFile = function tracedReadFile(path, ...rest) {
    noteRead(path);
    return readFile.call(this, path, ...rest);
  };
  fs.promises.readFile = function tracedReadFilePromise(path, ...rest) {
    noteRead(path);
    return readFilePromise.call(this, path, ...rest);
  };
  // Modules that import { Worker } from 'node:worker_threads' (or { Script } from 'node:vm', or
  // fs's readers) see the traced one too.
  syncBuiltinESMExports();
  process.on('exit', () => appendFileSync(trace, Object.keys(required).map((path) => `${pathToFileURL(path).href}\n`).join('')));
}
