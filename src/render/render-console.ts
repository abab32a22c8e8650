import type { ServiceRoute } from '../model/model-routes.js';
import type { ServiceModel } from '../model/model-types.js';
import { renderHtml } from './render-html.js';

export interface ConsoleOptions {
  served?: boolean;
  serviceRoutes?: readonly ServiceRoute[];
}

export function renderConsole(model: ServiceModel, _options: ConsoleOptions = {}): string {
  return renderHtml(model);
}
