// How the API calls a module (the core, a part, the character model's, a folder's): one wasm export,
// attn_call(operation, request, payload) (wasm/one_call.hpp), the same for all of them. The request is a JSON
// object, the payload bytes the operation reads whole (a spec's text, a trace's numbers, a weight file); the
// answer is JSON text, or null when refused, and then attn_error() is the sentence. A trace's answer names its
// floats by handle ([address, count] in the wasm heap), copied out here with typed arrays: a property or a string
// more in every answer costs about a microsecond (Embind's objects did), and a small trace is 5–20 µs.
// a.attention's kernel is the one exception: raw floats in the heap and a status (api.js, wasm/fast_path.cpp).

const encoder = new TextEncoder();

/** JSON.stringify's replacer that makes every string well-formed Unicode (a lone surrogate becomes U+FFFD). */
const wellFormed = (_key, value) => (typeof value === 'string' ? value.toWellFormed() : value);

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
 * The one call of a module: call(operation, request = {}, payload) → the answer's JSON text, or refuse(the core's
 * sentence) thrown. The payload (bytes, or text sent as UTF-8) is copied into the heap for the call; without one,
 * its pointer and length go in as 0 (wasm reads a missing argument as 0). The operations are the module's table
 * (call('operations')).
 */
export function operationText(module, refuse) {
  return (operation, request = {}, payload = undefined) => {
    // a lone surrogate in a request's string as the text's UTF-8 carries it (U+FFFD), not as a \ud800 escape,
    // which the core's JSON reader refuses: the sentence is then the operation's own ("… is unknown")
    const texts = [operation, JSON.stringify(request, wellFormed), ...(payload === undefined ? [] : [payload])];
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
      const answer = module._attn_call(...args);
      if (!answer) throw refuse(refusalOf(module));
      return module.UTF8ToString(answer);
    } finally {
      addresses.forEach((at) => module._free(at));
    }
  };
}

/** operationText's answer parsed: call(operation, request, payload) → its JSON value. */
export function operationCall(module, refuse) {
  const text = operationText(module, refuse);
  return (operation, request = {}, payload = undefined) => JSON.parse(text(operation, request, payload));
}

/**
 * The one call as a trace makes it, counting microseconds: call(operation, request, numbers, text) → the answer's
 * parsed JSON. The request is JSON text already; the payload is the text's UTF-8, or with numbers (a
 * Float32Array) a packed spec: their count (4 bytes), the floats, then the text (wasm/trace_paths.hpp,
 * trace_packed). All of it lies in one block of the heap with the operation and the request: a small trace's
 * every allocation counts. A text is encoded straight into the heap (room for 3 bytes a UTF-16 unit) unless it is
 * long. (Only one-thread modules trace: their memory is never shared, which encodeInto would refuse.)
 */
function blockCall(module, refuse) {
  let u8 = null; // a view of the heap, made again when the memory has grown (growing replaces the buffer)
  return (operation, request, numbers, text) => {
    const head = operation.length + request.length; // both ASCII: a character a byte
    const long = text.length > 65536 ? encoder.encode(text) : null;
    const payloadAt = (head + 3) & ~3; // the count and the floats aligned for them
    const textAt = payloadAt + (numbers ? 4 + numbers.length * 4 : 0);
    const size = textAt + (long ? long.length : 3 * text.length);
    const at = module._malloc(Math.max(size, 1));
    if (!at) throw refuse(`out of memory: the spec needs ${Math.ceil(size / 2 ** 20)} MiB more of this page's memory.`);
    try {
      if (u8?.buffer !== module.HEAPF32.buffer) u8 = new Uint8Array(module.HEAPF32.buffer); // after the malloc
      encoder.encodeInto(operation + request, u8.subarray(at, at + head));
      if (numbers) {
        new Uint32Array(u8.buffer, at + payloadAt, 1)[0] = numbers.length;
        module.HEAPF32.set(numbers, (at + payloadAt + 4) / 4);
      }
      const written = long ? (u8.set(long, at + textAt), long.length) : encoder.encodeInto(text, u8.subarray(at + textAt, at + size)).written;
      const answer = module._attn_call(at, operation.length, at + operation.length, request.length, at + payloadAt, textAt - payloadAt + written);
      if (!answer) throw refuse(refusalOf(module));
      return JSON.parse(module.UTF8ToString(answer));
    } finally {
      module._free(at);
    }
  };
}

/**
 * The trace calls over an instantiated module (the core, the vision part). Each returns {vision, layoutId, axesId,
 * serial, data: Float32Array of every stage back to back, bytes, computeMs, and with a mask: mask {shape, data:
 * Uint8Array}, emptyRows}, or {other: true} for a spec of the other module's kind, or throws refuse(sentence) with
 * the core's sentence.
 */
export function traceCalls(core, refuse) {
  const call = blockCall(core, refuse);

  /** A trace's answer (wasm/trace_paths.hpp, trace_answer): the values its handles name copied out of the heap (the core reuses its buffers). */
  function read(answer) {
    if (answer.kind === 'other') return { other: true }; // a spec of the other module's kind: nothing traced
    const [from, count] = answer.data;
    const result = {
      vision: answer.kind === 'vision',
      layoutId: answer.layout,
      axesId: answer.axes,
      serial: answer.serial,
      data: core.HEAPF32.slice(from / 4, from / 4 + count),
      bytes: answer.bytes,
      computeMs: answer.ns / 1e6,
    };
    if (answer.mask) {
      const [at, rows, cols] = answer.mask, [emptyAt, empty] = answer.empty_rows;
      result.mask = { shape: [rows, cols], data: new Uint8Array(core.HEAPF32.buffer, at, rows * cols).slice() };
      result.emptyRows = Array.from(new Uint32Array(core.HEAPF32.buffer, emptyAt, empty));
    }
    return result;
  }

  return {
    /** The trace of JSON text: a skeleton with no numbers; interactive: the playground's lower budget. */
    text(text, interactive) {
      return read(call('trace', interactive ? '{"interactive":true}' : '{}', null, text));
    },
    /** The trace of a packed skeleton (JSON text with {"$f32": …} references) and its numbers. */
    packed(skeleton, numbers, interactive) {
      return read(call('trace_packed', interactive ? '{"interactive":true}' : '{}', numbers, skeleton));
    },
    /** The trace of a worked example's spec text (from the core: example_spec), counted as an example. */
    exampleSpec(text) {
      return read(call('trace_example', '{}', null, text));
    },
  };
}
