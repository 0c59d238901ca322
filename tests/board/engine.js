// The wasm engine in Node, loaded from the same templates/static/engine.js the pages load, with a thin wrapper
// over its C ABI (the same calls as templates/static/board.js makes).
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const ENGINE_JS = path.join(__dirname, '..', '..', 'templates', 'static', 'engine.js');

async function load() {
  const text = fs.readFileSync(ENGINE_JS, 'utf8');
  const b64 = /"gzip-base64": "([^"]*)"/.exec(text)[1];
  const wasm = zlib.gunzipSync(Buffer.from(b64, 'base64'));
  const { instance } = await WebAssembly.instantiate(wasm, { env: { now_ms: () => performance.now() } });
  return new Engine(instance.exports);
}

const enc = new TextEncoder();
const dec = new TextDecoder();

class Engine {
  constructor(ex) { this.ex = ex; }
  put(s) {
    const b = enc.encode(s);
    const p = this.ex.lt_alloc(b.length);
    new Uint8Array(this.ex.memory.buffer, p, b.length).set(b);
    return [p, b.length];
  }
  out() {
    return dec.decode(new Uint8Array(this.ex.memory.buffer, this.ex.lt_out_ptr(), this.ex.lt_out_len()));
  }
  call(name, args, text) {
    let buf = null;
    if (text != null) { buf = this.put(text); args = args.concat(buf); }
    const rc = this.ex[name](...args);
    if (buf) this.ex.lt_free(buf[0], buf[1]);
    const out = this.out();
    if (rc < 0) throw new Error(`${name}: ${out}`);
    return out;
  }
  game(rules, ruleset) {
    const a = this.put(rules), b = this.put(ruleset || '');
    const h = this.ex.lt_new(a[0], a[1], b[0], b[1]);
    this.ex.lt_free(a[0], a[1]);
    this.ex.lt_free(b[0], b[1]);
    if (h < 0) throw new Error(`lt_new: ${this.out()}`);
    return h;
  }
}

module.exports = { load };
