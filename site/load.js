// Loads the page's scripts in the form its address allows. Over http(s): the ES modules (assets/esm/), so the
// code and wasm of a figure are fetched when it is first drawn and each wasm is compiled as it streams (the
// bytes before the first figure are held to the size budget: web/build-site.mjs). From file:// (a page saved
// to disk), where browsers run no module file: the classic scripts (assets/*.js), which carry their wasm.
//
//   <script src="load.js" data-scripts="attention-stepper attention-path" data-threads="assets/core-threads/attention_core.js">
//
// data-threads (relative to this file): the wasm-threads core, used when the page is cross-origin isolated
// (../web/src/stepper/page_core.js reads it from this tag). window.attentionScripts: a promise of the scripts'
// exports in data-scripts' order (the ES modules' namespaces, or the classic scripts' globals).
(function () {
  var me = document.currentScript;
  var assets = new URL('assets/', me.src);
  var GLOBALS = { 'attention-stepper': 'AttentionStepperBundle', 'attention-path': 'AttentionPath' };
  var names = me.dataset.scripts.trim().split(/\s+/);
  function classic(name) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = new URL(name + '.js', assets).href;
      script.async = false; // run in data-scripts' order (the path reads the stepper's core)
      script.onload = function () { resolve(window[GLOBALS[name]]); };
      script.onerror = function () { reject(new Error(script.src + ' is missing')); };
      document.head.append(script);
    });
  }
  function esModule(name) {
    return import(new URL('esm/' + name + '.js', assets).href);
  }
  window.attentionScripts = Promise.all(names.map(location.protocol === 'file:' ? classic : esModule));
  // said where the page's author looks, the promise still rejected for whoever awaits it
  window.attentionScripts.catch(function (error) { console.error('the page\'s scripts could not be loaded: ' + error.message); });
})();
