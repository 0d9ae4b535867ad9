// The vision views (vision_views.js), fetched the first time a vision block's trace reaches the element: about
// 2.7 KB of code that a sequence figure never runs. The element awaits ready() before it draws such a trace.
import { onDemand } from './on_demand.js';

export const visionViews = onDemand('the vision views', () => import('./vision_views.js'));
