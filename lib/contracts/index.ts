export * from "./enums";
export * from "./limits";
export * from "./primitives";
export * from "./records";
export * from "./batch";
export * from "./errors";
export * from "./scrub";
export * from "./args-hash";
