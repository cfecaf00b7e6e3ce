import type { AnyRoute } from "../http/route.js";
import { credentialRoutes } from "./credentials.js";
import { identityRoutes } from "./identity.js";

/** Every operation of the API, in documentation order. */
export const apiRoutes: AnyRoute[] = [...identityRoutes, ...credentialRoutes];
