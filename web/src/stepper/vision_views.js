// The vision views, as one module the element loads the first time a page shows a vision block (vision_ready.js).
export { axes, moveInTensor, renderVisionProgress, renderVisionStage } from './vision_view.js';
export { visionEditor } from './vision_editor.js';
