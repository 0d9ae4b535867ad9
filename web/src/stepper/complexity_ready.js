// The complexity example's panels (complexity_views.js), fetched the first time the element shows that example:
// about 2.4 KB of code that every other example's figure never runs. The element awaits ready() before it draws them.
import { onDemand } from './on_demand.js';

export const complexityViews = onDemand('the complexity panels', () => import('./complexity_views.js'));
