// The payment gateway adapters, one line each: a new gateway is one folder (server/gateways/<name>/,
// exporting its codes, return routes, settings schema and constructor) and one line here. The server's
// return URLs, the shell's route map (npm run gen) and the check of the return screens (npm run check)
// all come from this list.
import type { GatewayAdapter } from './adapter';
import { registryErrors, returnRoutesOf } from './plugins';
import { sandboxAdapter } from './sandbox/index';
import { stripeAdapter } from './stripe/index';

const ADAPTERS: GatewayAdapter[] = [
  sandboxAdapter,
  stripeAdapter,
];

/** The listed adapters (and any registered since). */
export const gatewayAdapters = (): readonly GatewayAdapter[] => ADAPTERS;

/** Spec 2.1: the return route of each gateway code (the parent comes back to `${product base}${route}`). */
export const RETURN_ROUTES: Record<number, string> = returnRoutesOf(ADAPTERS);

/**
 * Adds an adapter beside the listed ones, e.g. a test's, refused when it clashes with them; answers
 * the function that takes it out again.
 */
export function registerGatewayAdapter(adapter: GatewayAdapter): () => void {
  const errors = registryErrors([...ADAPTERS, adapter]);
  if (errors.length) throw new Error(`gateway adapter "${adapter.name}": ${errors.join('; ')}`);
  ADAPTERS.push(adapter);
  refresh();
  return () => {
    const at = ADAPTERS.indexOf(adapter);
    if (at >= 0) ADAPTERS.splice(at, 1);
    refresh();
  };
}

function refresh() {
  for (const code of Object.keys(RETURN_ROUTES)) delete RETURN_ROUTES[Number(code)];
  Object.assign(RETURN_ROUTES, returnRoutesOf(ADAPTERS));
}
