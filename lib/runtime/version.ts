/** Name reported as `resource.sdk.name`. */
export const RUNTIME_NAME = "faultline-runtime";
/** Version reported as `resource.sdk.version`. */
export const RUNTIME_VERSION = "0.1.0";
