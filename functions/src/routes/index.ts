import type { AnyRoute } from "../http/route.js";
import { calendarRoutes } from "./calendars.js";
import { changeRoutes } from "./changes.js";
import { credentialRoutes } from "./credentials.js";
import { eventRoutes } from "./events.js";
import { freeBusyRoutes } from "./freebusy.js";
import { exceptionRoutes } from "./exceptions.js";
import { identityRoutes } from "./identity.js";
import { accessRequestRoutes } from "./access-requests.js";
import { grantRoutes } from "./grants.js";
import { importRoutes } from "./imports.js";
import { layerRoutes } from "./layers.js";
import { viewRoutes } from "./views.js";
import { webhookRoutes } from "./webhooks.js";

/** Every operation of the API, in documentation order. */
export const apiRoutes: AnyRoute[] = [
  ...identityRoutes,
  ...credentialRoutes,
  ...calendarRoutes,
  ...eventRoutes,
  ...freeBusyRoutes,
  ...exceptionRoutes,
  ...importRoutes,
  ...changeRoutes,
  ...grantRoutes,
  ...accessRequestRoutes,
  ...viewRoutes,
  ...layerRoutes,
  ...webhookRoutes,
];
