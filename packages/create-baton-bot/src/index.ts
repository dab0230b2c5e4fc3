export { type CliArgs, parseCliArgs } from "./cli-args.js";
export {
  PACKAGE_MANAGERS,
  type PackageManager,
  PLATFORMS,
  type PlatformSpec,
  STATES,
  type StateSpec,
} from "./platforms.js";
export { ScaffoldError, type ScaffoldOptions, type ScaffoldResult, scaffold } from "./scaffold.js";
