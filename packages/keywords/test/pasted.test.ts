import { describe, expect, it } from 'vitest';
import { carriedEvidence, extractPastedEvidence } from '../src/pasted.js';

/** `role:qualifier.qualifier.name` for each reference, in order. */
const refs = (text: string): string[] => extractPastedEvidence(text).code.map((r) => `${r.role}:${[...r.qualifiers, r.name].join('.')}`);
const messages = (text: string): string[] => extractPastedEvidence(text).messages.map((m) => `${m.kind}:${m.text}`);

describe('extractPastedEvidence: code', () => {
  it('reads a Python block: calls, the receiver type of an assigned variable, no builtins', () => {
    const text = 'Streaming breaks:\n\n```python\nimport httpx\nclient = httpx.Client(base_url=url)\nwith client.stream("GET", "/x") as response:\n    for chunk in response.iter_bytes():\n        print(len(chunk))\n```';
    expect(refs(text)).toEqual(['call:httpx.Client', 'mention:base_url', 'call:client.Client.stream', 'call:response.iter_bytes']);
  });

  it('reads a Go block: a method definition with its receiver, a constructor function, a call on its result', () => {
    const text = '```go\nfunc (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\tsrv := caddyhttp.NewServer(cfg)\n\tsrv.Listen(addr)\n\tfmt.Println(len(addr))\n}\n```';
    expect(refs(text)).toEqual(['definition:Handler.ServeHTTP', 'call:caddyhttp.NewServer', 'call:srv.Server.Listen']);
  });

  it('reads a Rust block: Type::new constructs the type, a builder chain keeps its root, macros are builtins', () => {
    const text = '```rust\nlet walker = WalkBuilder::new(path).hidden(false).build();\nprintln!("{:?}", walker);\n```';
    expect(refs(text)).toEqual(['construct:WalkBuilder', 'call:WalkBuilder.hidden', 'call:WalkBuilder.hidden.build']);
  });

  it('reads Java and C# blocks: method definitions after modifiers, new, generic calls', () => {
    expect(refs('```java\npublic Document parseBodyFragment(String bodyHtml, String baseUri) {\n    Document doc = new Document(baseUri);\n    return doc;\n}\n```')).toEqual([
      'definition:parseBodyFragment',
      'mention:bodyHtml',
      'mention:baseUri',
      'construct:Document',
    ]);
    expect(refs('```csharp\nvar policy = Policy.Handle<HttpRequestException>().WaitAndRetryAsync(3, _ => delay);\nawait policy.ExecuteAsync(ct => client.GetAsync(uri, ct));\n```')).toContain('call:Policy.Handle');
    expect(refs('```csharp\nawait policy.ExecuteAsync(ct => client.GetAsync(uri, ct));\n```')).toEqual(['call:policy.ExecuteAsync', 'call:client.GetAsync']);
  });

  it('reads TypeScript and Ruby blocks', () => {
    expect(refs("```ts\nconst app = Fastify({ logger: true })\napp.register(fastifyCors, { origin: '*' })\nawait app.inject().get('/health')\nconsole.log(JSON.stringify(res))\n```")).toEqual([
      'call:Fastify',
      'call:app.Fastify.register',
      'mention:fastifyCors',
      'call:app.Fastify.inject',
      'call:app.Fastify.inject.get',
    ]);
    expect(refs("```ruby\nconn = Faraday.new(url: 'http://x') do |f|\n  f.request :retry\nend\nconn.get('/path')\n```")).toEqual(['construct:Faraday', 'mention:f.request', 'call:conn.Faraday.get']);
  });

  it('reads inline spans: a lone identifier is named on purpose, prose words outside spans are not code', () => {
    expect(refs('Calling `Flask.test_client()` after `teardown` breaks app context handling')).toEqual(['call:Flask.test_client', 'mention:teardown']);
    expect(refs('The handler breaks when the request has no body (see issue)')).toEqual([]);
  });

  it('reads indented blocks that look like code, not indented list continuations', () => {
    expect(refs('Reproduce with:\n\n    session = Session()\n    session.mount(prefix, adapter)\n\nthen it fails.')).toEqual(['call:Session', 'call:session.Session.mount']);
    expect(refs('Changes:\n\n    - fixed the parser (again)\n    - renamed things\n')).toEqual([]);
  });

  it('does not read the frames of a pasted traceback as code', () => {
    const text = '```\nTraceback (most recent call last):\n  File "src/app.py", line 4, in handle_request\n    raise_for_status()\nKeyError: \'session_id\'\n```';
    expect(refs(text)).toEqual(['call:raise_for_status']);
  });
});

describe('extractPastedEvidence: messages', () => {
  it('reads error lines of every language, without the error type or level', () => {
    const text = [
      '```',
      "TypeError: Cannot destructure property 'context' of undefined",
      'panic: runtime error: invalid memory address or nil pointer dereference',
      'java.lang.IllegalStateException: Response has already been committed',
      'error[E0599]: no method named `walk` found for struct `Dir`',
      '2024-03-01 12:00:01,337 WARNING [worker] heartbeat missed for 3 intervals',
      '```',
    ].join('\n');
    expect(messages(text)).toEqual([
      "error:Cannot destructure property 'context' of undefined",
      'error:runtime error: invalid memory address or nil pointer dereference',
      'error:Response has already been committed',
      'error:no method named `walk` found for struct `Dir`',
      'log:heartbeat missed for 3 intervals',
    ]);
  });

  it('reads the string a statement raises, throws, panics with or logs, placeholders removed', () => {
    const text = [
      '```',
      'raise ValueError(f"Invalid header value {value!r} for field")',
      "throw new FastifyError('Reply was already sent')",
      'panic!("cannot walk directory {}: permission denied", path);',
      'return fmt.Errorf("listener %s closed before serving", addr)',
      'logger.warning("retry budget exhausted after %d attempts", n)',
      '```',
    ].join('\n');
    expect(messages(text)).toEqual([
      'raised:Invalid header value for field',
      'raised:Reply was already sent',
      'raised:cannot walk directory : permission denied',
      'raised:listener closed before serving',
      'raised:retry budget exhausted after attempts',
    ]);
  });

  it('reads quoted text after words like error, message or says, not apostrophes or quoted names', () => {
    expect(messages('Submitting the form fails with "multipart part header too large" on big uploads.')).toEqual(['quoted:multipart part header too large']);
    expect(messages("The error message says 'could not import application module' instead.")).toEqual(['quoted:could not import application module']);
    expect(messages("The user's error isn't shown, it's dropped")).toEqual([]);
    expect(messages('The message "max_retries" is wrong')).toEqual([]);
  });

  it('reads text in curly quotes, as word processors and issue forms write them', () => {
    expect(messages('Saving the draft fails with \u201Cdocument is locked by another editor\u201D every time.')).toEqual(['quoted:document is locked by another editor']);
    // The quotes around an error line's message are not part of it.
    expect(messages('ValueError: \u201Cconfig file not found in the search path\u201D')).toEqual(['error:config file not found in the search path']);
  });
});

describe('carriedEvidence', () => {
  it('marks code, messages and traces', () => {
    expect(carriedEvidence('Fix the timeout handling of the pool')).toEqual({ code: false, message: false, trace: false });
    // A lone back-ticked word is a keyword, not pasted code.
    expect(carriedEvidence('Rename `timeout` in the pool')).toEqual({ code: false, message: false, trace: false });
    expect(carriedEvidence('`Pool.acquire()` hangs')).toEqual({ code: true, message: false, trace: false });
    expect(carriedEvidence('Traceback (most recent call last):\n  File "pool.py", line 9, in acquire\nTimeoutError: pool exhausted after waiting')).toEqual({ code: false, message: true, trace: true });
  });

  it('stays linear on long runs of identifier characters', () => {
    const text = `\`\`\`\n${'a_'.repeat(20_000)}(\n${'x.'.repeat(20_000)}\n\`\`\`\nerror: ${'"'.repeat(5000)}`;
    const start = performance.now();
    extractPastedEvidence(text);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
