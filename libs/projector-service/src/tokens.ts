/** DI tokens: ports are injected by token, never by concrete class (hexagonal shell). */
export const PROJECTOR_SETTINGS = Symbol('PROJECTOR_SETTINGS');
export const LOGGER = Symbol('LOGGER');
export const SQL_DATABASE = Symbol('SQL_DATABASE');
export const EVENT_SOURCE = Symbol('EVENT_SOURCE');
export const PROJECTION_PIPELINE = Symbol('PROJECTION_PIPELINE');
export const DEAD_LETTER_SINK = Symbol('DEAD_LETTER_SINK');
