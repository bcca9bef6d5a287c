/** DI tokens: ports are injected by token, never by concrete class (hexagonal shell). */
export const PROJECTOR_CONFIG = Symbol('PROJECTOR_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const SQL_DATABASE = Symbol('SQL_DATABASE');
export const KAFKA = Symbol('KAFKA');
export const PROJECTION_PIPELINE = Symbol('PROJECTION_PIPELINE');
export const DEAD_LETTER_SINK = Symbol('DEAD_LETTER_SINK');
export const GOVERNANCE_POLICY = Symbol('GOVERNANCE_POLICY');
