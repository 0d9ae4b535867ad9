// How the API calls a module (the core, a part): plain wasm exports, one way for all of them. A trace leaves
// one header in the wasm heap beside its floats, read here with typed arrays (wasm/trace_paths.hpp); every
// other call answers JSON text or a sentence (wasm/text_answer.hpp). Either returns null when refused, and
// then attn_error() is the sentence. (An Embind call that returns an object cost about a microsecond for
// each property and each string that crossed: more than the arithmetic of a small trace.)

const encoder = new TextEncoder();

/** trace_header (wasm/trace_paths.hpp): 11 four-byte fields (read by index below), then two doubles at byte 48. */
const DOUBLES_AT = 48;

/** The sentence of a module's last refusal. */
const refusalOf = (module) => module.UTF8ToString(module._attn_error());

/** A value the core answered, frozen through and through: the registries and tables callers share. */
export function deepFreeze(value) {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/**
 * call(name, texts, ...numbers) over a module: the texts (strings, or bytes already) as UTF-8 in its heap
 * (pointer and byte length each), then the numbers; the answer's text, or refuse(sentence). `name` may be
 * a function of those arguments instead, for an export that takes others first (the model's handle).
 */
export function textCalls(module, refuse) {
  return function call(name, texts, ...numbers) {
    const encoded = texts.map((t) => (t instanceof Uint8Array ? t : encoder.encode(t)));
    const addresses = [];
    try {
      const args = [];
      for (const bytes of encoded) {
        const at = module._malloc(Math.max(bytes.length, 1));
        if (!at) throw refuse(`out of memory: this page's memory has no room for a text of ${bytes.length} bytes.`);
        addresses.push(at);
        new Uint8Array(module.HEAPF32.buffer).set(bytes, at); // after each malloc: one may have grown the memory
        args.push(at, bytes.length);
      }
      const answer = (typeof name === 'function' ? name : module[`_${name}`])(...args, ...numbers);
      if (!answer) throw refuse(refusalOf(module));
      return module.UTF8ToString(answer);
    } finally {
      addresses.forEach((at) => module._free(at));
    }
  };
}

/**
 * The one call of a module that takes operations (the character model's, the model folders'): call(operation,
 * request = {}, payload) → the answer's parsed JSON, or refuse(the core's sentence) thrown. The request is a JSON
 * object; the payload, bytes or text the operation reads whole (a weight file, a corpus, a spec's JSON text). The operations are the
 * core's table (call('operations')).
 */
export function operationCall(module, refuse) {
  const text = textCalls(module, refuse);
  const entry = (...args) => module._attn_call(...args);
  // without a payload its pointer and length go in as 0 (wasm reads a missing argument as 0): nothing is copied
  return (operation, request = {}, payload = undefined) =>
    JSON.parse(text(entry, payload === undefined ? [operation, JSON.stringify(request)] : [operation, JSON.stringify(request), payload]));
}

/** A text the module keeps, by the address an export returned: undefined for null (no longer kept). */
export function keptText(module, address) {
  return address ? module.UTF8ToString(address) : undefined;
}

/**
 * The three trace calls over an instantiated module. Each returns {vision, layoutId, axesId, serial, data:
 * Float32Array of every stage back to back, bytes, computeMs, and with a mask: mask {shape, data: Uint8Array},
 * emptyRows}, or throws refuse(sentence) with the core's sentence.
 */
export function traceCalls(core, refuse) {
  let views = null;
  /** Views of the wasm memory, made again when it has grown (growing replaces the buffer). */
  function heap() {
    const { buffer } = core.HEAPF32;
    if (views?.buffer !== buffer) {
      views = { buffer, u8: new Uint8Array(buffer), i32: new Int32Array(buffer), u32: new Uint32Array(buffer), f64: new Float64Array(buffer) };
    }
    return views;
  }

  /**
   * Runs call(addresses, lengths) with texts (as UTF-8) and an optional Float32Array copied into the heap,
   * then frees them. A text is encoded straight into the heap (room for 3 bytes a UTF-16 unit) unless it
   * is long: a small trace's every allocation of a buffer counts. (Only one-thread modules trace: their
   * memory is never shared, which encodeInto would refuse.)
   */
  function withCopies(texts, numbers, call) {
    const encoded = texts.map((t) => (t.length > 65536 ? encoder.encode(t) : null));
    const sizes = [...texts.map((t, k) => (encoded[k] ? encoded[k].length : 3 * t.length)), ...(numbers ? [numbers.length * 4] : [])];
    const addresses = [];
    try {
      for (const size of sizes) {
        const at = core._malloc(Math.max(size, 1));
        if (!at) throw refuse(`out of memory: the spec needs ${Math.ceil(size / 2 ** 20)} MiB more of this page's memory.`);
        addresses.push(at);
      }
      const { u8 } = heap(); // after every malloc: one may have grown the memory
      const lengths = texts.map((t, k) => {
        if (encoded[k]) return u8.set(encoded[k], addresses[k]), encoded[k].length;
        return encoder.encodeInto(t, u8.subarray(addresses[k], addresses[k] + sizes[k])).written;
      });
      if (numbers) core.HEAPF32.set(numbers, addresses.at(-1) / 4);
      return read(call(addresses, lengths));
    } finally {
      addresses.forEach((at) => core._free(at));
    }
  }

  /** The header at `address`: the trace's values copied out of the heap (the core reuses its buffers). */
  function read(address) {
    if (!address) throw refuse(refusalOf(core));
    const { u8, i32, u32, f64 } = heap();
    const h = address >> 2;
    const field = (k) => i32[h + k];
    if (field(0) === 2) return { other: true }; // a spec of the other module's kind: nothing traced
    const from = field(4) >>> 2;
    const result = {
      vision: field(0) === 1,
      layoutId: field(1),
      axesId: field(2),
      serial: field(3),
      data: core.HEAPF32.slice(from, from + field(5)),
      bytes: f64[(address + DOUBLES_AT) >> 3],
      computeMs: f64[(address + DOUBLES_AT + 8) >> 3],
    };
    if (field(6)) {
      result.mask = { shape: [field(7), field(8)], data: u8.slice(field(6), field(6) + field(7) * field(8)) };
      result.emptyRows = Array.from(u32.subarray(field(9) >>> 2, (field(9) >>> 2) + field(10)));
    }
    return result;
  }

  return {
    /** The trace of JSON text: the one entry's skeleton with no numbers (null); interactive: the playground's lower budget. */
    text(text, interactive) {
      return withCopies([text], null, ([at], [length]) => core._attn_trace_packed(at, length, 0, 0, interactive ? 1 : 0));
    },
    /** The trace of a packed skeleton (JSON text with {"$f32": …} references) and its numbers: the same entry. */
    packed(skeleton, numbers, interactive) {
      return withCopies([skeleton], numbers, ([at, numbersAt], [length]) =>
        core._attn_trace_packed(at, length, numbersAt, numbers.length, interactive ? 1 : 0));
    },
    /** The trace of a worked example's spec text (from the core: attn_example_spec), counted as an example. */
    exampleSpec(text) {
      return withCopies([text], null, ([at], [length]) => core._attn_trace_example_spec(at, length));
    },
  };
}
