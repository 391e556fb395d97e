export { setup as default } from "./global-stack"
