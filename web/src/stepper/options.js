// What a stepper is asked to show: its attributes, then (with url-state) the page's URL on top,
// and which of those asks it cannot honour (an unknown example, stage, head, speed or language),
// so the element can say so instead of silently showing something else.
import { shownStageFor, shownStages } from './steps.js';
import { readUrl } from './url_state.js';

export const SPEEDS = [0.5, 1, 2, 4];
/** How the weights stage can be drawn (view attribute and URL parameter). */
export const VIEWS = ['matrix', 'lines'];
// the example an element shows when none is named: attention's point at a glance (each Chinese word
// on the English word it translates), where numpy-3x4 opened on a grid of 0s and 1s
export const DEFAULT_EXAMPLE = 'translation';

/** A user's text inside a notice: at most 80 characters (it is shown as text, never as markup). */
const short = (text) => (String(text).length > 80 ? `${String(text).slice(0, 80)}…` : String(text));

/** The element's attributes, with the URL's options on top when it has url-state (async: a shared spec is compressed). */
export async function readOptions(el) {
  const a = (n) => el.getAttribute(n) ?? undefined;
  const fromAttrs = {
    example: a('example'), variant: a('variant'), spec: a('spec'), stage: a('stage'), lang: a('lang'), view: a('view'), head: a('head'),
    autoplay: el.hasAttribute('autoplay'), compact: el.hasAttribute('compact'), controls: undefined,
  };
  if (!el.hasAttribute('url-state')) return fromAttrs;
  const url = await readUrl(location.search, location.hash);
  // a URL that names an example, or carries a spec, asks for that as it opens: the attribute's stage,
  // view and variant belong to the attribute's example. An example without a spec is the example
  // itself (not the attribute's spec); a spec without an example is the reader's data (not an edit of
  // the attribute's example).
  const ownSpec = !!(url.spec || url.specRefused);
  if (url.example || ownSpec) Object.assign(fromAttrs, { stage: undefined, view: undefined, variant: undefined });
  if (url.example && !url.spec) fromAttrs.spec = undefined;
  if (ownSpec && !url.example) fromAttrs.example = undefined;
  return { ...fromAttrs, ...url };
}

/** True when the options carry a spec of their own (JSON text) rather than naming an example. */
export function hasSpec(options) {
  return options.spec !== undefined && options.spec !== null && options.spec !== '';
}

/**
 * The example and variant to load: known ones as asked, unknown ones replaced (noted in ignored).
 * With a spec of its own, an unknown example leaves the spec unattached ('').
 */
export function pickExample(options, catalog, ignored) {
  let exampleId = options.example ?? '';
  let variant = options.variant ?? '';
  const known = catalog.find((e) => e.id === exampleId);
  if (exampleId && !known) ignored.push(['example', exampleId]);
  if (!known) exampleId = hasSpec(options) ? '' : DEFAULT_EXAMPLE;
  const variants = catalog.find((e) => e.id === exampleId)?.variants ?? [];
  if (variant && !variants.includes(variant)) {
    if (!hasSpec(options)) ignored.push(['variant', variant]);
    variant = '';
  }
  return { exampleId, variant };
}

/** Stage index, head and speed for a trace, from the options (unknown ones noted in ignored). */
export function pickView(options, trace, currentSpeed, ignored) {
  const ids = shownStages(trace).map((s) => s.id);
  const stage = options.stage && shownStageFor(trace, options.stage);
  if (options.stage && !stage) ignored.push(['stage', options.stage]);
  const headParam = Number(options.head);
  const headOk = Number.isInteger(headParam) && headParam >= 1 && headParam <= trace.spec.heads;
  if (options.head !== undefined && !headOk) ignored.push(['head', options.head]);
  const speedOk = SPEEDS.includes(Number(options.speed));
  if (options.speed !== undefined && !speedOk) ignored.push(['speed', options.speed]);
  if (options.lang !== undefined && options.lang !== 'en' && options.lang !== 'zh') ignored.push(['lang', options.lang]);
  const viewOk = VIEWS.includes(options.view);
  if (options.view !== undefined && !viewOk) ignored.push(['view', options.view]);
  return {
    view: viewOk ? options.view : null,
    stageIndex: Math.max(0, ids.indexOf(stage)),
    head: headOk ? headParam - 1 : 0,
    speed: speedOk ? Number(options.speed) : currentSpeed,
  };
}

/** The ignored asks as the notice lists them: `stage "zzz"`. */
export function describeIgnored(ignored) {
  return ignored.map(([option, value]) => `${option} "${short(value)}"`);
}
