export { dynamic, GET, OPTIONS } from "../../route";
