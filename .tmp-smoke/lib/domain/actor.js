export const hasScope = (actor, scope) => !!actor && actor.scopes.includes(scope);
//# sourceMappingURL=actor.js.map