/** Where each record lives in the document store. Every global lookup is a read by id. */
export const paths = {
    agent: (agentId) => `agents/${agentId}`,
    credentials: (agentId) => `agents/${agentId}/credentials`,
    credential: (agentId, credentialId) => `agents/${agentId}/credentials/${credentialId}`,
    memberships: (agentId) => `agents/${agentId}/memberships`,
    membership: (agentId, calendarId) => `agents/${agentId}/memberships/${calendarId}`,
    token: (tokenHash) => `tokens/${tokenHash}`,
    onboardToken: (tokenHash) => `onboard_tokens/${tokenHash}`,
    claim: (tokenHash) => `claims/${tokenHash}`,
    calendar: (calendarId) => `calendars/${calendarId}`,
    slug: (slug) => `slugs/${slug}`,
    events: (calendarId) => `calendars/${calendarId}/events`,
    event: (calendarId, eventId) => `calendars/${calendarId}/events/${eventId}`,
    grants: (calendarId) => `calendars/${calendarId}/grants`,
    grant: (calendarId, grantId) => `calendars/${calendarId}/grants/${grantId}`,
    accessRequests: (calendarId) => `calendars/${calendarId}/access_requests`,
    accessRequest: (calendarId, requestId) => `calendars/${calendarId}/access_requests/${requestId}`,
    pendingRequest: (calendarId, agentId) => `calendars/${calendarId}/pending_requests/${agentId}`,
    views: (calendarId) => `calendars/${calendarId}/views`,
    view: (calendarId, viewId) => `calendars/${calendarId}/views/${viewId}`,
    viewSlug: (slug) => `view_slugs/${slug}`,
    layers: (calendarId) => `calendars/${calendarId}/layers`,
    layer: (calendarId, layerId) => `calendars/${calendarId}/layers/${layerId}`,
    /** Reverse links: the calendars a calendar is attached to as a layer. */
    hosts: (calendarId) => `calendars/${calendarId}/hosts`,
    host: (calendarId, hostId) => `calendars/${calendarId}/hosts/${hostId}`,
};
//# sourceMappingURL=paths.js.map