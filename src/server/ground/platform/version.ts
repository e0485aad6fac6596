import pkg from "../../../../package.json";

/** The service version, from package.json. */
export const SERVICE_VERSION: string = pkg.version;
export const SERVICE_NAME = "Direct Mail Programme";
