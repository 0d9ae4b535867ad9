// A spec as the caller hands it over, read once before anything crosses into wasm: an object (walked for
// what JSON cannot carry: NaN, BigInt, lone surrogates, cycles, deep nesting) or JSON text (its size and its
// Unicode checked); the JSON text of what the packer leaves as text. Each refusal is one sentence naming
// the value's path, in the core's words for an index.
import { shortText } from './args.js';
import { AttentionError } from './attention_error.js';

/** Nesting deeper than the core accepts is refused here too, before a cycle could recurse forever. */
const MAX_DEPTH = 32;

function describe(value) {
  if (typeof value === 'bigint') return `a BigInt (${String(value).slice(0, 40)}n); use a Number`;
  if (typeof value === 'number') return `${value}, not a finite number`;
  return 'a text with a lone UTF-16 surrogate (half of a character), which is not valid Unicode';
}

/**
 * Walks a spec once and returns the first value JSON cannot carry faithfully, with its path
 * (".x[0][1]"): NaN and ±Infinity (JSON.stringify would write null), BigInt (it would throw a
 * TypeError), strings with a lone surrogate (text specs are checked the same way), a cycle or
 * nesting deeper than MAX_DEPTH (it would overflow the stack). `seen.typed` tells whether typed
 * arrays need converting. The path is only spelled out for the value that is refused.
 */
function inspect(value, seen, depth) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path: '', problem: describe(value) };
  if (typeof value === 'bigint') return { path: '', problem: describe(value) };
  if (typeof value === 'string') return value.isWellFormed() ? null : { path: '', problem: describe(value) };
  if (!value || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return { path: '', problem: `nested more than ${MAX_DEPTH} levels deep (or refers to itself)` };
  if (seen.open.has(value)) return { path: '', problem: 'the same object again inside itself (a cycle), which JSON cannot write' };
  seen.open.add(value);
  let found = null;
  if (ArrayBuffer.isView(value)) {
    seen.typed = true;
    if (!(value instanceof DataView)) {
      for (let i = 0; i < value.length && !found; i++) {
        const inner = inspect(value[i], seen, depth + 1);
        if (inner) found = { path: `[${i}]${inner.path}`, problem: inner.problem };
      }
    }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length && !found; i++) {
      const inner = inspect(value[i], seen, depth + 1);
      if (inner) found = { path: `[${i}]${inner.path}`, problem: inner.problem };
    }
  } else {
    for (const key of Object.keys(value)) {
      const inner = key.isWellFormed() ? inspect(value[key], seen, depth + 1) : { path: '', problem: `a field name that is ${describe(key)}` };
      if (inner) {
        found = { path: `.${key.isWellFormed() ? key : '?'}${inner.path}`, problem: inner.problem };
        break;
      }
    }
  }
  seen.open.delete(value);
  return found;
}

/** Typed arrays are welcome as rows; JSON.stringify would write them as {"0": …} objects. */
function typedArraysAsLists(_key, value) {
  return ArrayBuffer.isView(value) ? Array.from(value) : value;
}


/** " (row 1, column 2)" for a path ending in [0][1], " (entry 3)" for one ending in a single [2]: the core's way. */
function peopleIndex(path) {
  const cellMatch = path.match(/^\.[a-z_.]+\[(\d+)\]\[(\d+)\]$/);
  if (cellMatch) return ` (row ${Number(cellMatch[1]) + 1}, column ${Number(cellMatch[2]) + 1})`;
  const entry = path.match(/^\.[a-z_.]+\[(\d+)\]$/);
  if (!entry) return '';
  return ` (${path.startsWith('.tokens.') ? 'label' : 'entry'} ${Number(entry[1]) + 1})`;
}

/**
 * Whether a spec object is being read (walked, packed or stringified). A getter or toJSON in it that calls
 * the API again would share the packer's buffers with the outer call and corrupt its trace: refused.
 */
let readingSpec = false;
export function readingSpecObject(read) {
  if (readingSpec) {
    throw new AttentionError('a getter or toJSON in a spec called the attention API while that spec was being read: work out its values first, then pass plain data.');
  }
  readingSpec = true;
  try {
    return read();
  } catch (error) {
    // a revoked Proxy, a detached buffer, toJSON returning a BigInt or a cycle: TypeErrors from the reading
    if (error instanceof AttentionError) throw error;
    const why = String(error?.message ?? error).split('\n')[0].replace(/\.$/, '');
    throw new AttentionError(`the spec could not be read (${shortText(why)}).`);
  } finally {
    readingSpec = false;
  }
}

export function specText(spec, maxBytes) {
  if (typeof spec === 'string') {
    // each UTF-16 unit is at least one UTF-8 byte, so this refuses before anything crosses into wasm
    if (spec.length > maxBytes) {
      throw new AttentionError(`the spec is ${Math.ceil(spec.length / 2 ** 20)} MiB of text, over the limit of ${maxBytes / 2 ** 20} MiB.`);
    }
    if (!spec.isWellFormed()) throw new AttentionError(`the spec is ${describe(spec)}.`);
    return spec;
  }
  if (!spec || typeof spec !== 'object' || readingSpecObject(() => Array.isArray(spec))) {
    throw new AttentionError('the spec must be an object (or JSON text) with at least "x".');
  }
  const text = readingSpecObject(() => {
    const seen = { typed: false, open: new Set() };
    const bad = inspect(spec, seen, 0);
    if (bad) throw new AttentionError(`${shortText(bad.path.slice(1)) || 'the spec'}${peopleIndex(bad.path)} is ${bad.problem}.`);
    return seen.typed ? JSON.stringify(spec, typedArraysAsLists) : JSON.stringify(spec); // a replacer is slow
  });
  return specText(text, maxBytes);
}

/**
 * The JSON text of a spec value that packSpec does not pack, or null when the text path must take the whole
 * spec: a value JSON cannot carry (refused there with its path in the whole spec), or the spec's own
 * "$f32", which the core must not read as a reference to the numbers. depth: the value's depth in the spec.
 */
export function leafText(value, depth) {
  const seen = { typed: false, open: new Set() };
  if (inspect(value, seen, depth)) return null;
  const text = seen.typed ? JSON.stringify(value, typedArraysAsLists) : JSON.stringify(value);
  return text?.includes('"$f32"') ? null : text;
}
