/** DI tokens: ports are injected by token, never by concrete class (hexagonal shell). */
export const GOVERNANCE_POLICY = Symbol('GOVERNANCE_POLICY');
export const LOGGER = Symbol('LOGGER');
export const API_DATABASE = Symbol('API_DATABASE');
export const AGENT_EVENT_PUBLISHER = Symbol('AGENT_EVENT_PUBLISHER');
export const CLOCK = Symbol('CLOCK');
