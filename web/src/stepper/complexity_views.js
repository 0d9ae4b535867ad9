// The complexity example's panels, as one module the element loads the first time it shows that example (complexity_ready.js).
export { complexityPanel } from './complexity.js';
export { pathsPanel } from './complexity_paths.js';
