export { teardown as default } from "./global-stack"
