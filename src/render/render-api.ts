// `servicespec/render`: the nine-part document as Markdown or HTML, and the docs console page.

export { renderMarkdown } from './render-markdown.js';
export { renderHtml } from './render-html.js';
export { renderConsole } from './render-console.js';
export type { ConsoleOptions } from './render-console.js';
