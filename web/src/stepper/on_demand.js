// Code a page fetches only when it first shows what needs it (the vision views, the complexity example's panels,
// the train mode): import() of a module that bundlers put in a chunk of its own, so the bytes before a
// sequence figure is drawn do not carry it. ready() loads it once (a failure is not kept: the next call tries
// again); get() reads it where drawing is synchronous, after a ready() the caller awaited.

/** A module loaded on demand: what names it in a sentence, load() its import(). */
export function onDemand(what, load) {
  let loading = null;
  let loaded = null;
  return {
    ready() {
      loading ??= load().then((module) => (loaded = module), (error) => {
        loading = null;
        throw new Error(`${what} could not be loaded (${String(error?.message ?? error).slice(0, 200)}).`);
      });
      return loading;
    },
    get() {
      if (!loaded) throw new Error(`${what}: used before ready() had loaded them.`);
      return loaded;
    },
  };
}
