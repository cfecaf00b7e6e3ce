// PENDING: views.test.ts still imports this from here (its file was being edited); deleted once it imports it from store.ts.
export { seedScopedToken } from "./store.js";
