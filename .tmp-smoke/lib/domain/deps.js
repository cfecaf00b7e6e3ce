export const nowIso = (deps) => deps.clock().toISOString();
//# sourceMappingURL=deps.js.map